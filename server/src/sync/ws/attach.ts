/**
 * `GET {BASE_PATH}/sync/ws`: the realtime channel of design §4 on the HTTP server `serve()`
 * returned. The token (`Authorization: Bearer …` or `?access_token=`) is checked before the
 * upgrade: a bad, expired or signed-out one is answered with HTTP 401 in the usual envelope and
 * no websocket. Once connected, the till gets `hello` and then `poke`, `stock` (or, dialled with
 * `?accept=stocks`, `stocks`) and `notification` messages (docs/realtime.md).
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerType } from '@hono/node-server';
import { decodeJwt } from 'jose';
import { type WebSocket, WebSocketServer } from 'ws';
import { authenticate, bearerToken } from '../../lib/auth/middleware.js';
import type { Actor, Deps } from '../../lib/context.js';
import { requireSettledPassword } from '../../lib/auth/authorize.js';
import { ForbiddenError, ServiceError } from '../../lib/errors.js';
import type { Realtime } from './realtime.js';
import { CLOSE, TillSocket } from './socket.js';

export interface RealtimeOptions {
  /** Ping every connection this often; one that has not answered the previous ping is dropped. Default 30 s. */
  heartbeatMs?: number;
  /** How long a connection waits for the fan-out channel to be listening before giving up. Default 5 s. */
  readyTimeoutMs?: number;
}

export interface RealtimeServer {
  /** The websocket path, `{BASE_PATH}/sync/ws`. */
  readonly path: string;
  /** Open connections on this instance. */
  connections(): number;
  /** Close every connection with 1001 (waiting up to `graceMs` for the close handshakes) and stop listening. */
  close(graceMs?: number): Promise<void>;
}

export function attachRealtime(server: ServerType, deps: Deps & { realtime: Realtime }, opts: RealtimeOptions = {}): RealtimeServer {
  const { log, realtime: hub } = deps;
  const path = `${deps.config.BASE_PATH}/sync/ws`;
  // Tills send nothing but pongs and close frames.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, clientTracking: false, perMessageDeflate: false });
  const sockets = new Set<TillSocket>();
  let closing = false;

  const listening = hub.start();
  listening.catch((err) => log.error({ err }, 'realtime: could not listen for changes'));

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => {});
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return void socket.destroy();
    }
    if (url.pathname !== path) return void socket.destroy();
    const requestId = randomUUID();
    let actor: Actor & { orgId: string };
    let expiresAt: number;
    // Message types the till can parse beyond the first ones (`REALTIME_ACCEPT`); unknown names are ignored.
    const accepts = new Set((url.searchParams.get('accept') ?? '').split(','));
    try {
      if (closing)
        throw new ServiceError('SERVICE_UNAVAILABLE', 'the server is shutting down; reconnect', { headers: { 'Retry-After': '5' } });
      const token = bearerToken(req.headers.authorization) ?? url.searchParams.get('access_token');
      const ctx = await authenticate({ ...deps, actor: null, requestId }, token);
      const { orgId } = ctx.actor;
      if (!orgId) throw new ForbiddenError('realtime updates are for accounts of a shop');
      actor = { ...ctx.actor, orgId };
      expiresAt = (decodeJwt(token!).exp ?? 0) * 1000;
      await deps.limits.user(actor.userId);
      await ready();
      // Signed in, still active, and not a temporary-password session (which may only set a new password).
      requireSettledPassword(await deps.sessions.current(actor));
    } catch (err) {
      return refuse(socket, err, requestId);
    }
    if (socket.destroyed || closing) return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => void connected(ws, actor, expiresAt, accepts));
  }

  /** The hub must be listening before a till is told its version, or a change could slip between. */
  async function ready(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('not listening yet')), opts.readyTimeoutMs ?? 5000);
    });
    try {
      await Promise.race([listening, late]);
    } catch {
      throw new ServiceError('SERVICE_UNAVAILABLE', 'realtime updates are not available right now; try again shortly', {
        headers: { 'Retry-After': '5' },
      });
    } finally {
      clearTimeout(timer);
    }
  }

  function refuse(socket: Duplex, err: unknown, requestId: string) {
    if (socket.destroyed) return;
    if (!(err instanceof ServiceError)) log.error({ err, req_id: requestId }, 'realtime: upgrade failed');
    const e = err instanceof ServiceError ? err : new ServiceError('INTERNAL', 'internal error; quote the request id when reporting it');
    const body = JSON.stringify({
      success: false,
      message: e.message,
      data: null,
      errors: e.extra.errors ?? [{ code: e.code, message: e.message }],
      meta: { request_id: requestId },
    });
    const headers = [
      `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? ''}`,
      'Connection: close',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      ...(e.status === 401 ? ['WWW-Authenticate: Bearer'] : []),
      ...Object.entries(e.extra.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
  }

  async function connected(ws: WebSocket, actor: Actor & { orgId: string }, expiresAt: number, accepts: ReadonlySet<string>) {
    const peer = new TillSocket(ws, actor, expiresAt, accepts);
    sockets.add(peer);
    hub.add(peer);
    ws.on('pong', () => void (peer.alive = true));
    ws.on('error', (err) => log.debug({ err, user: actor.userId }, 'realtime: socket error'));
    ws.on('close', () => {
      peer.dispose();
      hub.remove(peer);
      sockets.delete(peer);
    });
    log.debug({ user: actor.userId, org: actor.orgId, store: actor.storeId }, 'realtime: connected');
    peer.expireIn(expiresAt - deps.clock.now());
    try {
      // Read after joining the hub: a change committed later reaches this peer as a poke, one
      // committed earlier is in the version; and a revocation in between is seen either way.
      const [active, version] = await Promise.all([hub.sessionActive(actor.sid), hub.versionOf(actor.orgId)]);
      if (!active) return peer.close(CLOSE.sessionRevoked);
      peer.hello(version);
    } catch (err) {
      log.warn({ err, user: actor.userId }, 'realtime: could not start the session');
      peer.close(CLOSE.tryAgainLater);
    }
  }

  const heartbeat = setInterval(() => {
    const now = deps.clock.now();
    for (const peer of sockets) {
      if (peer.expiresAt <= now) peer.close(CLOSE.tokenExpired);
      else if (!peer.alive) peer.ws.terminate();
      else if (peer.ws.readyState === peer.ws.OPEN) {
        peer.alive = false;
        peer.ws.ping();
      }
    }
  }, opts.heartbeatMs ?? 30_000);
  heartbeat.unref();

  const listener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void onUpgrade(req, socket, head);
  (server as Server).on('upgrade', listener);

  return {
    path,
    connections: () => sockets.size,
    async close(graceMs = 1000) {
      if (closing) return;
      closing = true;
      clearInterval(heartbeat);
      const open = [...sockets];
      for (const peer of open) peer.close(CLOSE.goingAway);
      const closed = Promise.all(
        open.map(
          (p) => new Promise<void>((resolve) => (p.ws.readyState === p.ws.CLOSED ? resolve() : p.ws.once('close', () => resolve()))),
        ),
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      for (const peer of sockets) peer.ws.terminate();
      (server as Server).off('upgrade', listener);
      wss.close();
      await hub.stop();
    },
  };
}

/** A websocket till for the realtime tests: records every message and how the socket closed. */
import { type ServerMessage, ServerMessage as ServerMessageSchema } from '@duka/shared';
import WebSocket, { type ClientOptions } from 'ws';

export interface TestSocket {
  ws: WebSocket;
  /** Every message received so far, parsed against the protocol's ServerMessage. */
  messages: ServerMessage[];
  /** The first message after those already taken that matches, waiting up to `ms`. */
  next<T extends ServerMessage['type']>(
    type: T,
    ms?: number,
    where?: (m: Extract<ServerMessage, { type: T }>) => boolean,
  ): Promise<Extract<ServerMessage, { type: T }>>;
  /** Resolves when the socket closes. */
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

export interface Refusal {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export function wsUrl(httpBase: string, path = '/api/v1/sync/ws') {
  return httpBase.replace(/^http/, 'ws') + path;
}

/**
 * Connect with the token as a bearer header (or `?access_token=` with `via: 'query'`), naming `accept`
 * (the message types beyond the first ones, as a till of today does) when given; resolves once open.
 */
export function connect(
  url: string,
  token: string,
  opts: { via?: 'header' | 'query'; accept?: string; ws?: ClientOptions } = {},
): Promise<TestSocket> {
  const target = new URL(url);
  if (opts.via === 'query') target.searchParams.set('access_token', token);
  if (opts.accept !== undefined) target.searchParams.set('accept', opts.accept);
  const ws = new WebSocket(target, { ...opts.ws, headers: opts.via === 'query' ? {} : { authorization: `Bearer ${token}` } });
  const messages: ServerMessage[] = [];
  const waiters = new Set<() => void>();
  const taken = new Set<number>();
  ws.on('message', (data) => {
    messages.push(ServerMessageSchema.parse(JSON.parse(String(data))));
    for (const w of waiters) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const socket: TestSocket = {
    ws,
    messages,
    closed,
    next(type, ms = 1000, where = () => true) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const i = messages.findIndex((m, j) => !taken.has(j) && m.type === type && where(m as never));
          if (i < 0) return false;
          taken.add(i);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(messages[i] as never);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${type} message within ${ms} ms; got ${JSON.stringify(messages)}`));
        }, ms);
        if (!check()) waiters.add(check);
      });
    },
    async close() {
      if (ws.readyState === ws.CLOSED) return;
      ws.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Try to connect and expect the server to refuse the upgrade: its HTTP status and JSON body. */
export function refusal(url: string, headers: Record<string, string> = {}): Promise<Refusal> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      reject(new Error('the server accepted the connection'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    ws.once('error', reject);
  });
}

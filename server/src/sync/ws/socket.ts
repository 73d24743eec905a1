/**
 * One till's websocket: what it may see (organisation, store), poke coalescing, liveness, and
 * the close codes of the channel.
 */
import { PROTOCOL_VERSION, REALTIME_ACCEPT, type ServerMessage } from '@duka/shared';
import type { WebSocket } from 'ws';
import type { Actor } from '../../lib/context.js';
import type { Peer } from './realtime.js';

/** Close codes (also in docs/realtime.md). */
export const CLOSE = {
  /** The server is shutting down or restarting: reconnect (to another instance). */
  goingAway: { code: 1001, reason: 'server shutting down' },
  /** The server could not start the session (e.g. the database did not answer): reconnect later. */
  tryAgainLater: { code: 1013, reason: 'try again later' },
  /** The access token expired: refresh it and reconnect. */
  tokenExpired: { code: 4001, reason: 'token expired' },
  /** The session was revoked (logout, password reset, deactivation, refresh-token reuse): sign in again. */
  sessionRevoked: { code: 4003, reason: 'session revoked' },
} as const;

/** At most one poke per socket per this many milliseconds; pokes in between coalesce to the latest version. */
export const POKE_INTERVAL_MS = 50;
/** A till that does not read its messages is dropped rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1 << 20;

export class TillSocket implements Peer {
  readonly orgId: string;
  readonly storeId: string | null;
  readonly userId: string;
  readonly sid: string;
  /** Dialled with `accept=stocks`: takes the levels of a store's stock read in one `stocks` frame. */
  readonly stocks: boolean;
  /** Answered the last ping. */
  alive = true;
  private ready = false;
  private closed = false;
  /** Frames the hub delivered before `hello`, already serialised. */
  private backlog: string[] = [];
  /** The highest version the till was told (hello or poke). */
  private sentVersion = -1;
  private pendingVersion: number | null = null;
  private lastPokeAt = -Infinity;
  private pokeTimer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly ws: WebSocket,
    actor: Actor & { orgId: string },
    /** When the access token expires, epoch ms. */
    readonly expiresAt: number,
    /** The message types of `REALTIME_ACCEPT` the till named on the upgrade. */
    accepts: ReadonlySet<string> = new Set(),
  ) {
    this.orgId = actor.orgId;
    this.storeId = actor.storeId;
    this.userId = actor.userId;
    this.sid = actor.sid;
    this.stocks = accepts.has(REALTIME_ACCEPT.stocks);
  }

  /** Close with 4001 when the token expires, `msLeft` from now by the server's clock. */
  expireIn(msLeft: number) {
    if (msLeft <= 0) return this.close(CLOSE.tokenExpired);
    // setTimeout wraps delays over 2^31-1 ms; the heartbeat also checks expiry, so capping is safe.
    this.expiryTimer = setTimeout(() => this.close(CLOSE.tokenExpired), Math.min(msLeft, 2 ** 31 - 1));
    this.expiryTimer.unref();
  }

  /** The first message; everything the hub delivered before it is sent right after. */
  hello(version: number) {
    if (this.closed) return;
    this.write({ type: 'hello', version, protocol: PROTOCOL_VERSION });
    this.sentVersion = version;
    this.ready = true;
    for (const text of this.backlog.splice(0)) this.writeText(text);
    if (this.pendingVersion !== null) this.poke(this.pendingVersion);
  }

  poke(version: number) {
    if (this.closed || version <= this.sentVersion) return;
    this.pendingVersion = Math.max(this.pendingVersion ?? version, version);
    if (!this.ready || this.pokeTimer) return;
    const wait = this.lastPokeAt + POKE_INTERVAL_MS - performance.now();
    if (wait <= 0) return this.flushPoke();
    this.pokeTimer = setTimeout(() => {
      this.pokeTimer = null;
      this.flushPoke();
    }, wait);
  }

  private flushPoke() {
    const version = this.pendingVersion;
    this.pendingVersion = null;
    if (version === null || version <= this.sentVersion || this.closed) return;
    this.sentVersion = version;
    this.lastPokeAt = performance.now();
    this.write({ type: 'poke', version });
  }

  sendText(text: string) {
    if (this.closed) return;
    if (this.ready) this.writeText(text);
    else this.backlog.push(text);
  }

  revoke() {
    this.close(CLOSE.sessionRevoked);
  }

  private write(message: ServerMessage) {
    this.writeText(JSON.stringify(message));
  }

  private writeText(text: string) {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ws.terminate();
      return;
    }
    this.ws.send(text);
  }

  close(how: { code: number; reason: string }) {
    if (this.closed) return;
    this.closed = true;
    this.dispose();
    this.ws.close(how.code, how.reason);
  }

  /** Forget timers and queued messages (the socket closed or is closing). */
  dispose() {
    this.closed = true;
    if (this.pokeTimer) clearTimeout(this.pokeTimer);
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.pokeTimer = this.expiryTimer = null;
    this.backlog = [];
  }
}

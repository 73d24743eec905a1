/**
 * The websocket hint channel (`/sync/ws`, docs/realtime.md): every `hello`, `poke`, `stock`,
 * `notification` or `payment` asks the engine for a sync, which pulls the real rows (a `payment`
 * also goes to the till's payment watch, since a push still awaiting is no row a pull brings). Messages are hints only,
 * so a lost one costs latency, never data. The link reconnects with backoff; on close 4001 (token
 * expired) or 4003 (session revoked) it refreshes the token first, and it waits for a login when
 * there is none. The socket comes from the platform (`platform.ts`), and the link uses what it can
 * see: where pings are visible (Node's `ws`), a server that stops pinging (every 30 s) for 75 s is
 * dropped and dialled again; where a refused upgrade shows its status, a 401 refreshes the token.
 * A browser shows neither, so there a dial that fails before opening is taken for a refused token
 * when that token is near its expiry or has failed that way before, and is refreshed; the link
 * dials again after the backoff.
 *
 * The link dials with `accept=stocks`: a server that knows it sends a store's stock levels as one
 * `stocks` frame, which the link hands on as the `stock` messages it stands for (one hint for all);
 * an older server ignores the parameter and sends `stock` frames as before.
 */
import { REALTIME_ACCEPT, ServerMessage } from '@duka/shared';
import type { AuthSession } from '../auth.js';
import { TillError } from '../errors.js';
import type { DialSocket, TillSocket } from '../platform.js';
import { type BackoffOptions, backoffDelay } from './backoff.js';

/** A dial that failed unseen refreshes the access token when it expires within this much. */
const BLIND_REFRESH_MS = 5 * 60_000;

export interface RealtimeOptions {
  /** The websocket to dial with this access token (the connector's `realtimeUrl`); null: none to dial. */
  url: (accessToken: string) => string | null;
  socket: DialSocket;
  auth: AuthSession;
  /** The till's clock (epoch ms). */
  now: () => number;
  /** A hint arrived (or the link opened): sync soon. */
  onHint: () => void;
  /** Every message, read (a `payment` one carries a push's new state, which a sync would not bring). */
  onMessage?: (message: ServerMessage) => void;
  onReachable: (reached: boolean) => void;
  /** The socket opened (true) or closed (false). */
  onLive: (live: boolean) => void;
  backoff?: BackoffOptions;
  random?: () => number;
  /** Drop a link the server has not pinged for this long (default 75 000 ms), where pings are visible. */
  silenceMs?: number;
}

export class RealtimeLink {
  private ws: TillSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private active = false;
  /** The token of the last dial that failed before opening on a socket that hides why. */
  private blindToken: string | null = null;

  constructor(private readonly o: RealtimeOptions) {}

  /** Connect (again) now, e.g. after a login. */
  start(): void {
    this.active = true;
    this.failures = 0;
    this.clearTimer();
    if (!this.ws) void this.connect();
  }

  stop(): void {
    this.active = false;
    this.clearTimer();
    this.ws?.close();
    this.ws = null;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private retry(delay = backoffDelay(++this.failures, this.o.backoff, this.o.random)): void {
    if (!this.active) return;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, delay);
    // Node's timers keep the process up unless unref'd; a browser's are numbers without it.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async connect(): Promise<void> {
    if (!this.active || this.ws) return;
    let token: string;
    try {
      token = await this.o.auth.accessToken();
    } catch (err) {
      // No sign-in: wait for `start()` after a login. Offline: try again later.
      if (!(err instanceof TillError && err.code === 'AUTH_REQUIRED')) this.retry();
      return;
    }
    if (!this.active || this.ws) return;
    const dial = this.o.url(token);
    if (!dial) return;
    const url = accepting(dial);
    let opened = false;
    let sock: TillSocket;
    const alive = () => {
      if (!sock.seesPings) return;
      if (this.watchdog) clearTimeout(this.watchdog);
      this.watchdog = setTimeout(() => sock.close(), this.o.silenceMs ?? 75_000);
      (this.watchdog as { unref?: () => void }).unref?.();
    };
    try {
      sock = this.o.socket(url, {
        open: () => {
          opened = true;
          this.failures = 0;
          this.blindToken = null;
          this.o.onLive(true);
          this.o.onReachable(true);
          alive();
        },
        ping: alive,
        message: (text) => {
          alive();
          let parsed: ReturnType<typeof ServerMessage.safeParse>;
          try {
            parsed = ServerMessage.safeParse(JSON.parse(text));
          } catch {
            return;
          }
          if (!parsed.success) return;
          const m = parsed.data;
          if (m.type === 'stocks') for (const item of m.items) this.o.onMessage?.({ type: 'stock', ...item });
          else this.o.onMessage?.(m);
          this.o.onHint();
        },
        // Refused before the upgrade (401 expired token, 429…): refresh on 401, then dial again.
        refused: (status) => {
          this.o.onReachable(true);
          if (this.ws !== sock) return;
          this.ws = null;
          sock.close();
          if (status === 401) void this.refreshThenConnect(token);
          else this.retry();
        },
        close: (code) => {
          if (this.watchdog) clearTimeout(this.watchdog);
          this.o.onLive(false);
          if (this.ws !== sock) return;
          this.ws = null;
          if (code === 4001 || code === 4003) void this.refreshThenConnect(token);
          else if (!opened && !sock.seesRefusals) void this.blindFailure(token);
          else {
            if (code === 1006) this.o.onReachable(false);
            this.retry();
          }
        },
      });
    } catch {
      // A URL the platform will not dial (a browser throws on a malformed one): the connector's to fix, but keep trying.
      this.retry();
      return;
    }
    this.ws = sock;
  }

  private async refreshThenConnect(stale: string): Promise<void> {
    try {
      await this.o.auth.refresh(stale);
    } catch (err) {
      if (err instanceof TillError && err.code === 'AUTH_REQUIRED') return;
      this.retry();
      return;
    }
    this.retry(0);
  }

  /**
   * The dial failed before opening and the socket does not say why: the network, the server's
   * limit, or a refused token all look alike. The token is refreshed when it is near its expiry by
   * this till's clock, or when the same token has failed before (a till whose clock lags sees a
   * fresh token the server calls expired); either way the next dial waits out the backoff, so a
   * server that refuses for another reason is not hammered. Reachability is left to the HTTP calls,
   * which can tell.
   */
  private async blindFailure(token: string): Promise<void> {
    const again = this.blindToken === token;
    this.blindToken = token;
    const claims = await this.o.auth.claims().catch(() => null);
    if (again || (claims && claims.exp * 1000 - this.o.now() <= BLIND_REFRESH_MS)) {
      this.blindToken = null;
      try {
        await this.o.auth.refresh(token);
      } catch (err) {
        if (err instanceof TillError && err.code === 'AUTH_REQUIRED') return;
      }
    }
    this.retry();
  }
}

/** The connector's URL with the message types this SDK parses beyond the first ones; a URL it cannot parse goes as it is. */
function accepting(url: string): string {
  try {
    const u = new URL(url);
    u.searchParams.set('accept', REALTIME_ACCEPT.stocks);
    return u.toString();
  } catch {
    return url;
  }
}

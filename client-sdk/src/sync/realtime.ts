/**
 * The websocket hint channel (`/sync/ws`, docs/realtime.md): every `hello`, `poke`, `stock` or
 * `notification` asks the engine for a sync, which pulls the real rows. Messages are hints only,
 * so a lost one costs latency, never data. The link reconnects with backoff; on close 4001 (token
 * expired) or 4003 (session revoked) it refreshes the token first, and it waits for a login when
 * there is none. A server that stops pinging (every 30 s) for 75 s is dropped and dialled again.
 */
import { ServerMessage } from '@duka/shared';
import WebSocket from 'ws';
import type { AuthSession } from '../auth.js';
import { TillError } from '../errors.js';
import { type BackoffOptions, backoffDelay } from './backoff.js';

export interface RealtimeOptions {
  /** The websocket to dial with this access token (the connector's `realtimeUrl`); null: none to dial. */
  url: (accessToken: string) => string | null;
  auth: AuthSession;
  /** A hint arrived (or the link opened): sync soon. */
  onHint: () => void;
  onReachable: (reached: boolean) => void;
  /** The socket opened (true) or closed (false). */
  onLive: (live: boolean) => void;
  backoff?: BackoffOptions;
  random?: () => number;
  /** Drop a link the server has not pinged for this long (default 75 000 ms). */
  silenceMs?: number;
}

export class RealtimeLink {
  private ws: WebSocket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private failures = 0;
  private active = false;

  constructor(private readonly o: RealtimeOptions) {}

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

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
    this.ws?.terminate();
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
    this.timer.unref?.();
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
    const url = this.o.url(token);
    if (!url) return;
    const ws = new WebSocket(url);
    this.ws = ws;
    const alive = () => {
      if (this.watchdog) clearTimeout(this.watchdog);
      this.watchdog = setTimeout(() => ws.terminate(), this.o.silenceMs ?? 75_000);
      this.watchdog.unref?.();
    };
    ws.on('open', () => {
      this.failures = 0;
      this.o.onLive(true);
      this.o.onReachable(true);
      alive();
    });
    ws.on('ping', alive);
    ws.on('message', (raw) => {
      alive();
      let parsed: ReturnType<typeof ServerMessage.safeParse>;
      try {
        parsed = ServerMessage.safeParse(JSON.parse(String(raw)));
      } catch {
        return;
      }
      if (parsed.success) this.o.onHint();
    });
    // Refused before the upgrade (401 expired token, 429…): refresh on 401, then dial again.
    ws.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      this.o.onReachable(true);
      ws.terminate();
      this.ws = null;
      if (status === 401) void this.refreshThenConnect(token);
      else this.retry();
    });
    ws.on('error', () => undefined);
    ws.on('close', (code) => {
      if (this.watchdog) clearTimeout(this.watchdog);
      this.o.onLive(false);
      if (this.ws !== ws) return;
      this.ws = null;
      if (code === 4001 || code === 4003) void this.refreshThenConnect(token);
      else {
        if (code === 1006) this.o.onReachable(false);
        this.retry();
      }
    });
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
}

/**
 * Noticing the network come back without waiting out the sync's backoff, which after a long outage
 * is up to half a minute. While the server is out of reach the till probes it every few seconds
 * (a cheap unauthenticated request, so a till that lost its sign-in still finds the network); the
 * probe's answer reports reachability like every other call, and the till syncs at once. In a
 * browser the window's `online` event starts a sync too, but the probe keeps running, because
 * `online` only says a network interface is up, not that the server answers. Nothing here is
 * particular to Node or to browsers: the `online` listener is used only where the global has one.
 */

export interface ConnectivityOptions {
  /** Probe the server this often while it is out of reach (default 5 000 ms). */
  intervalMs?: number;
  /** Ask the server once; the answer's reachability reaches the till like any call's. */
  ping: () => Promise<unknown>;
  /** The platform says the network is back (a browser's `online` event). */
  onNetworkBack: () => void;
}

type EventHost = { addEventListener(type: string, fn: () => void): void; removeEventListener(type: string, fn: () => void): void };

export class ConnectivityWatch {
  private running = false;
  /** The last call found the server out of reach. */
  private out = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private probing = false;
  private readonly intervalMs: number;
  private readonly onOnline = () => this.o.onNetworkBack();

  constructor(private readonly o: ConnectivityOptions) {
    this.intervalMs = o.intervalMs ?? 5_000;
  }

  /** Watch while the till syncs on its own. */
  start(): void {
    if (this.running) return;
    this.running = true;
    host()?.addEventListener('online', this.onOnline);
    if (this.out) this.schedule();
  }

  stop(): void {
    this.running = false;
    host()?.removeEventListener('online', this.onOnline);
    this.clear();
  }

  /** A call found no server: probe until one answers. */
  lost(): void {
    this.out = true;
    if (this.running) this.schedule();
  }

  /** A call was answered. */
  found(): void {
    this.out = false;
    this.clear();
  }

  /** One probe after the interval, then another while the server stays out of reach; never two at once. */
  private schedule(): void {
    if (this.timer || this.probing) return;
    this.timer = setTimeout(async () => {
      this.timer = null;
      this.probing = true;
      await this.o.ping().catch(() => undefined);
      this.probing = false;
      if (this.running && this.out) this.schedule();
    }, this.intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** The global that fires `online` (a browser window or worker), or none (Node). */
function host(): EventHost | null {
  const g = globalThis as Partial<EventHost>;
  return typeof g.addEventListener === 'function' && typeof g.removeEventListener === 'function' ? (g as EventHost) : null;
}

/**
 * Knowing at once whether the server can be reached (issue 37: the status bar said "Online" for
 * 27 s after the network dropped). Two sources:
 * - the platform's network events where it has them (a browser's `online`/`offline`): `offline`
 *   means no network at all, so the till is offline at once; `online` only says an interface is
 *   up, so it triggers a probe right away rather than being believed;
 * - a probe while the server is out of reach: a cheap unauthenticated request (a till that lost its
 *   sign-in still finds the network) every couple of seconds, whose answer reports reachability
 *   like every other call, so the till syncs as soon as the server answers.
 * Nothing here is particular to Node or to browsers: the events come from whatever the platform
 * (or the host, through `TillOptions.network`) hands in, and Node hands in none.
 */
import type { NetworkEvents } from '../platform.js';

export interface ConnectivityOptions {
  /** Probe the server this often while it is out of reach (default 2 000 ms). */
  intervalMs?: number;
  /** Ask the server once; the answer's reachability reaches the till like any call's. */
  ping: () => Promise<unknown>;
  /** The platform's network events, or none. */
  network?: NetworkEvents | null;
  /** The platform says the network is back (a browser's `online` event). */
  onNetworkBack: () => void;
  /** The platform says there is no network at all (a browser's `offline` event). */
  onNetworkLost: () => void;
}

export class ConnectivityWatch {
  private running = false;
  /** The last call found the server out of reach. */
  private out = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private probing = false;
  private readonly intervalMs: number;
  private readonly onOnline = () => {
    this.o.onNetworkBack();
    this.probeNow();
  };
  private readonly onOffline = () => this.o.onNetworkLost();

  constructor(private readonly o: ConnectivityOptions) {
    this.intervalMs = o.intervalMs ?? 2_000;
  }

  /** Watch while the till syncs on its own. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.o.network?.addEventListener('online', this.onOnline);
    this.o.network?.addEventListener('offline', this.onOffline);
    if (this.out) this.schedule();
  }

  stop(): void {
    this.running = false;
    this.o.network?.removeEventListener('online', this.onOnline);
    this.o.network?.removeEventListener('offline', this.onOffline);
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

  /** Probe now instead of at the next tick (the network is said to be back). */
  private probeNow(): void {
    if (!this.running || this.probing) return;
    this.clear();
    void this.probe();
  }

  /** One probe after the interval, then another while the server stays out of reach; never two at once. */
  private schedule(): void {
    if (this.timer || this.probing) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.probe();
    }, this.intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async probe(): Promise<void> {
    this.probing = true;
    await this.o.ping().catch(() => undefined);
    this.probing = false;
    if (this.running && this.out) this.schedule();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

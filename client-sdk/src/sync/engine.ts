/**
 * The sync loop (style convention 11): push, then pull, one sync at a time. A sync is started by
 * `syncNow()`, the timer, a websocket poke, or the network coming back; a request made while one
 * runs is served by one more sync right after it. Failures are retried with exponential backoff
 * and jitter, without limit: a queue never stops retrying on its own; a server's `Retry-After` holds
 * every automatic attempt (a sale's or a poke's too) until then. Only a missing sign-in makes
 * it wait, for `login`, and a server that no longer speaks the till's sync protocol (426) stops it
 * for good: no retry can help, only a newer till.
 */
import { TillError } from '../errors.js';
import type { SyncReport } from '../events.js';
import { DukaApiError } from '../http/errors.js';
import { getMeta, setMeta } from '../local/meta.js';
import { pruneAcked } from '../queue.js';
import { downloadSnapshot, swapSnapshot } from '../replica/bootstrap.js';
import { refreshAddoList } from '../replica/addo-list.js';
import { pullChanges } from '../replica/pull.js';
import { type BackoffOptions, backoffDelay } from './backoff.js';
import type { SyncCtx } from './context.js';
import { registerDevice } from './device.js';
import { pushQueue } from './push.js';

/** Local copies of the store's sales older than this are dropped (the server stops sending them). */
const TRANSACTION_WINDOW_MS = 30 * 86_400_000;
/** Push-and-pull rounds one sync makes while sales keep arriving during it. */
const MAX_ROUNDS = 5;

export interface EngineOptions {
  /** Time between syncs when all is well (default 30 000 ms). */
  intervalMs?: number;
  backoff?: BackoffOptions;
  random?: () => number;
  /** The server refused the till's protocol version: syncing has stopped. */
  onOutdated: (err: DukaApiError) => void;
  /** Told when a sync starts and ends (status). */
  onState: (s: { syncing?: boolean; error?: unknown; report?: SyncReport; nextAt?: number | null }) => Promise<void> | void;
}

export class SyncEngine {
  private current: Promise<SyncReport> | null = null;
  /** Whether a `syncNow` caller awaits the running sync (rather than only a timer or a kick). */
  private currentAsked = false;
  private next: Promise<SyncReport> | null = null;
  private nextAsked = false;
  private timer: NodeJS.Timeout | null = null;
  private auto = false;
  private failures = 0;
  private registered = false;
  private closed = false;
  /** The server's refusal that said when to come back (`Retry-After`): kicks wait for that retry too. */
  private held: DukaApiError | null = null;
  /** The server's refusal of this till's protocol version, answered to every later sync. */
  private outdated: DukaApiError | null = null;

  constructor(
    private readonly ctx: SyncCtx,
    private readonly o: EngineOptions,
  ) {}

  /**
   * Sync now; if a sync is running, the one right after it. Rejects with that sync's error. When
   * the running sync is one nobody asked for (login's, a timer's, a poke's), its report is folded
   * into the answer: `await login(); await syncNow()` answers the bootstrap login started.
   */
  syncNow(): Promise<SyncReport> {
    return this.request(true);
  }

  private request(asked: boolean): Promise<SyncReport> {
    if (this.closed) return Promise.reject(new TillError('CLOSED', 'the till is closed'));
    if (this.outdated) return Promise.reject(this.outdated);
    if (!this.current && !this.next) return this.begin(asked, null);
    if (asked) this.nextAsked = true;
    if (this.next) return this.next;
    const current = this.current!;
    // The running sync's report, when no caller was given it.
    const unclaimed = this.currentAsked
      ? current.then(
          () => null,
          () => null,
        )
      : current.catch(() => null);
    this.next = unclaimed.then((earlier) => {
      this.next = null;
      const nextAsked = this.nextAsked;
      this.nextAsked = false;
      // Only kicks wait for it: no point asking before the server's Retry-After.
      if (this.held && !nextAsked) return Promise.reject(this.held);
      return this.begin(nextAsked, earlier);
    });
    return this.next;
  }

  /** Run a sync now; its answer includes `earlier`, the report of a sync before it that nobody was given. */
  private begin(asked: boolean, earlier: SyncReport | null): Promise<SyncReport> {
    if (this.closed) return Promise.reject(new TillError('CLOSED', 'the till is closed'));
    if (this.outdated) return Promise.reject(this.outdated);
    this.currentAsked = asked;
    const run = this.run().finally(() => (this.current = null));
    this.current = run;
    return earlier ? run.then((r) => mergeReports(earlier, r)) : run;
  }

  /** Syncing on its own: a sale is pushed as it is rung up. */
  get running(): boolean {
    return this.auto;
  }

  /** Sync on a timer (and retry with backoff) until `stop`. */
  start(): void {
    if (this.outdated) return;
    this.auto = true;
    this.schedule(0);
  }

  stop(): void {
    this.auto = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Something happened that is worth a sync soon (a poke, the network back, a login): sync now. */
  kick(): void {
    if (this.auto && !this.closed && !this.held) this.request(false).catch(() => undefined);
  }

  /** Stop and wait for a running sync to end. */
  async close(): Promise<void> {
    this.stop();
    this.closed = true;
    await this.current?.catch(() => undefined);
    await this.next?.catch(() => undefined);
  }

  /** Ask for a device registration at the next sync (after a login). */
  forgetRegistration(): void {
    this.registered = false;
  }

  private schedule(delay: number): void {
    if (!this.auto || this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.held = null;
      this.request(false).catch(() => undefined);
    }, delay);
    this.timer.unref?.();
    void this.o.onState({ nextAt: this.ctx.now() + delay });
  }

  private async run(): Promise<SyncReport> {
    await this.o.onState({ syncing: true });
    try {
      const report = await this.cycle();
      this.failures = 0;
      this.held = null;
      await this.o.onState({ syncing: false, report, nextAt: null });
      this.ctx.events.emit('synced', report);
      this.schedule(this.o.intervalMs ?? 30_000);
      return report;
    } catch (err) {
      await this.o.onState({ syncing: false, error: err, nextAt: null });
      if (err instanceof DukaApiError && err.code === 'UNSUPPORTED_PROTOCOL') {
        this.outdated = err;
        this.stop();
        this.o.onOutdated(err);
      } else if (err instanceof TillError && err.code === 'AUTH_REQUIRED') {
        // Nothing to retry until someone signs in; login kicks a sync.
        this.schedule(this.o.intervalMs ?? 30_000);
      } else {
        this.failures++;
        const retryAfter = err instanceof DukaApiError ? err.retryAfter : undefined;
        // A sale or a poke in the meantime would only be refused again (and counted against the limit).
        this.held = retryAfter !== undefined && this.auto ? (err as DukaApiError) : null;
        this.schedule(backoffDelay(this.failures, this.o.backoff, this.o.random, retryAfter));
      }
      throw err;
    }
  }

  private async cycle(): Promise<SyncReport> {
    const { ctx } = this;
    if (!(await ctx.auth.hasTokens())) throw new TillError('AUTH_REQUIRED', 'sign in to sync');
    if (!this.registered || !(await getMeta(ctx.db, 'till_code'))) {
      await registerDevice(ctx);
      this.registered = true;
    }
    const report: SyncReport = { pushed: 0, pulled: 0, numbered: [], bootstrapped: false, at: '' };
    let addoListVersion: number | undefined;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const pushed = await pushQueue(ctx);
      report.pushed += pushed.pushed;
      report.numbered.push(...pushed.numbered);
      if (!(await getMeta(ctx.db, 'cursor'))) {
        const snap = await downloadSnapshot(ctx);
        if (!(await swapSnapshot(ctx, snap))) continue;
        report.bootstrapped = true;
        report.pulled += snap.rows;
      }
      const pulled = await pullChanges(ctx);
      report.pulled += pulled.applied;
      addoListVersion = pulled.addoListVersion ?? addoListVersion;
      if (pulled.kind === 'done') break;
      // reset: push what is queued, then bootstrap again. blocked: a sale came in; push it, pull again.
      if (pulled.kind === 'reset') {
        await ctx.db.deleteFrom('meta').where('key', '=', 'cursor').execute();
        // A feed that went back may mean a server restored from a backup: registering again tells
        // the till the seq the server expects, so it sends what the server lost now, not only when
        // its next sale is pushed.
        await registerDevice(ctx);
      }
    }
    // After the pull, which may have brought the store's new outlet type.
    if (addoListVersion !== undefined) await refreshAddoList(ctx, addoListVersion);
    const now = ctx.now();
    await pruneAcked(ctx.db, now);
    await ctx.db
      .deleteFrom('transactions')
      .where('sync_state', '=', 'synced')
      .where('created_at', '<', new Date(now - TRANSACTION_WINDOW_MS).toISOString())
      .execute();
    report.at = new Date(now).toISOString();
    await setMeta(ctx.db, 'last_sync_at', report.at);
    return report;
  }
}

/** Two syncs' reports as one: what both pushed, pulled and numbered; bootstrapped if either did. */
function mergeReports(a: SyncReport, b: SyncReport): SyncReport {
  return {
    pushed: a.pushed + b.pushed,
    pulled: a.pulled + b.pulled,
    numbered: [...a.numbered, ...b.numbered],
    bootstrapped: a.bootstrapped || b.bootstrapped,
    at: b.at,
  };
}

/**
 * Waiting for the queue to empty: what an app awaits before it shows "all sent", or a script
 * before it closes the till. It asks the replica, never only the status, because a sale just made
 * may not have reached the status's pending count yet.
 */
import { TillError } from '../errors.js';
import type { TillEvents, TypedEmitter } from '../events.js';
import type { LocalDb } from '../local/db.js';
import { pendingCount } from '../queue.js';

export interface WhenSyncedOptions {
  /** Give up after this long with `TillError` `TIMEOUT` (default: wait as long as it takes). */
  timeoutMs?: number;
  /** Give up when this is aborted, with its reason. */
  signal?: AbortSignal;
}

export interface WaitCtx {
  db: LocalDb;
  events: TypedEmitter<TillEvents>;
  /** Aborted when the till closes. */
  closed: AbortSignal;
  /** The pending count as the status has it, for the timeout's message. */
  pending: () => number;
}

/** Resolves once no mutation is pending (pushed and answered); at once when none is. */
export function whenQueueEmpty(w: WaitCtx, o: WhenSyncedOptions = {}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Looked at when the status counts nothing pending, and after every sync (the status may have
    // counted 0 before a sale it had not seen yet, and then has no change to tell).
    const onStatus = (s: { pending: number }) => {
      if (s.pending === 0) void check();
    };
    const onSynced = () => void check();
    const onAbort = () => finish(o.signal!.reason ?? new TillError('CLOSED', 'aborted'));
    const onClose = () => finish(new TillError('CLOSED', 'the till is closed'));
    const finish = (err?: unknown) => {
      w.events.off('status', onStatus);
      w.events.off('synced', onSynced);
      o.signal?.removeEventListener('abort', onAbort);
      w.closed.removeEventListener('abort', onClose);
      if (timer) clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    const check = async () => {
      const n = await pendingCount(w.db).catch(() => -1);
      if (n === 0) finish();
    };
    if (o.signal?.aborted) return onAbort();
    if (w.closed.aborted) return onClose();
    // Listening before the first look: a sync ending between the two is not missed.
    w.events.on('status', onStatus);
    w.events.on('synced', onSynced);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    w.closed.addEventListener('abort', onClose, { once: true });
    if (o.timeoutMs !== undefined) {
      timer = setTimeout(
        () => finish(new TillError('TIMEOUT', `the queue still holds ${w.pending()} pending mutations after ${o.timeoutMs} ms`)),
        o.timeoutMs,
      );
    }
    void check();
  });
}

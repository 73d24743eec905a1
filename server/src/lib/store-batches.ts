/**
 * Work of one store that arrives while an earlier batch of that store's work is being written waits
 * for it, then is written together: one transaction for all that queued (issues 17 and 39). A
 * store's writes take its row (receipt counter, stock) so they run one after another anyway; written
 * together, those that queued meanwhile share one begin, one commit (one fsync) and one hold of the
 * lock instead of one each.
 *
 * Each job keeps its own answer: `write` returns one outcome per job, a refusal is that job's alone.
 * If the shared transaction fails as a whole (a database error, not a rule), each job is tried again
 * in a transaction of its own, so one job's fault is never another's. Queues are per process and per
 * database (one per app): several server instances each batch their own, and the database's locks
 * order them as before.
 */
import { countedHere, noteWait } from '../db/statement-count.js';
import { type PendingCommit, type TransactionScope, withTransaction } from '../db/transaction.js';

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface StoreBatchOptions<C extends TransactionScope, J extends { ctx: C }, R> {
  /** At most this many jobs in one transaction. */
  maxJobs: number;
  /** Optionally also at most this much `weight` (the first job always goes, whatever it weighs). */
  maxWeight?: number;
  weight?: (job: J) => number;
  /**
   * The batch's work inside its transaction (`tx` is the first job's context): one outcome per job,
   * in order. `own(i, fn)` runs work of job i counted to its own request (COUNT_STATEMENTS).
   */
  write: (tx: C & { pending: PendingCommit }, batch: J[], own: <T>(i: number, fn: () => T) => T) => Promise<Outcome<R>[]>;
  /** Called for a job that failed, before its caller hears of it (to free what it claimed). */
  failed?: (job: J, error: unknown) => Promise<void>;
}

interface Waiting<J, R> {
  job: J;
  counted: <T>(fn: () => T) => T;
  /** Since when it has waited for its store's batch, counted as a wait of its request. */
  since: number;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/** A queue of batches per store; `run(storeId, job)` answers that job's own outcome. */
export function storeBatches<C extends TransactionScope, J extends { ctx: C }, R>(opts: StoreBatchOptions<C, J, R>) {
  const waiting = new WeakMap<object, Map<string, Waiting<J, R>[]>>();

  function take(queue: Waiting<J, R>[]): Waiting<J, R>[] {
    const { maxJobs, maxWeight, weight } = opts;
    let n = 1;
    let load = weight ? weight(queue[0]!.job) : 0;
    for (; n < Math.min(queue.length, maxJobs); n++) {
      if (maxWeight !== undefined && weight) {
        load += weight(queue[n]!.job);
        if (load > maxWeight) break;
      }
    }
    return queue.splice(0, n);
  }

  async function drain(stores: Map<string, Waiting<J, R>[]>, storeId: string) {
    const queue = stores.get(storeId)!;
    while (queue.length) await writeBatch(take(queue));
    stores.delete(storeId);
  }

  async function writeBatch(batch: Waiting<J, R>[]): Promise<void> {
    for (const w of batch) {
      const now = performance.now();
      w.counted(() => noteWait(now - w.since));
      w.since = now;
    }
    let outcomes: Outcome<R>[];
    try {
      // The shared begin and commit count to the batch's first request (the drain runs in the
      // context of whichever request started it).
      outcomes = await batch[0]!.counted(() =>
        withTransaction(batch[0]!.job.ctx, (tx) =>
          opts.write(
            tx,
            batch.map((w) => w.job),
            (i, fn) => batch[i]!.counted(fn),
          ),
        ),
      );
    } catch (error) {
      if (batch.length > 1) {
        for (const one of batch) await writeBatch([one]);
        return;
      }
      await settle(batch[0]!, { ok: false, error });
      return;
    }
    for (const [i, outcome] of outcomes.entries()) await settle(batch[i]!, outcome);
  }

  async function settle(w: Waiting<J, R>, outcome: Outcome<R>) {
    if (outcome.ok) return w.resolve(outcome.value);
    if (opts.failed) await opts.failed(w.job, outcome.error);
    w.reject(outcome.error);
  }

  return {
    run(storeId: string, job: J): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        let stores = waiting.get(job.ctx.db);
        if (!stores) waiting.set(job.ctx.db, (stores = new Map()));
        const queue = stores.get(storeId);
        const entry = { job, resolve, reject, counted: countedHere(), since: performance.now() };
        if (queue) {
          queue.push(entry);
          return;
        }
        // No batch of this store is being written: this job starts one at once, and the queue stays
        // (empty) while it is written, so jobs arriving meanwhile join the next.
        stores.set(storeId, [entry]);
        void drain(stores, storeId);
      });
    },
  };
}

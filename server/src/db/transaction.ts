/**
 * `withTransaction` runs `fn` in a transaction, or inside the caller's one when there already is
 * one, so verbs compose. Change-log entries noted during `fn` are recorded last, before commit.
 * Side effects that must not happen unless the data is committed (messages, websocket pokes,
 * events) are queued with `afterCommit` and run once the outermost commit is done. On Postgres a
 * transaction that loses a deadlock is run again (its queued effects with it, never twice).
 */
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import { type CommitListener, flushChanges, type NotedChange } from './change-log.js';
import type { Database } from './database.js';
import { isRetryableTransactionError } from './dialect.js';
import type { Transact } from './handle.js';

/** What a transaction has noted to do at its commit: change-log entries and after-commit tasks. */
export interface PendingCommit {
  afterCommit: Array<() => unknown>;
  /** Change-log entries, recorded as the transaction's last step. */
  changes: NotedChange[];
  /**
   * Present while a store's pushes written together defer their sales' stock moves (issue 49,
   * pos/sale/deferred-stock.ts): written once for the batch instead of once a push.
   */
  stock?: DeferredStock[];
}

/** A stock move kept for the end of the batch: `add` counts to a store's product row, at `now`. */
export interface DeferredStock {
  orgId: string;
  storeId: string;
  productId: string;
  add: number;
  now: number;
}

/**
 * The part of a service context (lib/context.ts) these helpers use, spelt out here so the database
 * layer needs nothing above it; every ServiceContext is one.
 */
export interface TransactionScope {
  db: Kysely<Database>;
  transact: Transact;
  clock: { now(): number };
  log: Logger;
  requestId: string;
  realtime: CommitListener;
  pending?: PendingCommit;
}

const MAX_ATTEMPTS = 3;

export async function withTransaction<C extends TransactionScope, T>(
  ctx: C,
  fn: (tx: C & { pending: PendingCommit }) => Promise<T>,
): Promise<T> {
  if (ctx.pending) return fn(ctx as C & { pending: PendingCommit });
  let pending: PendingCommit = { afterCommit: [], changes: [] };
  const attempt = () =>
    ctx.transact(async (trx) => {
      pending = { afterCommit: [], changes: [] };
      const out = await fn({ ...ctx, db: trx, pending });
      if (pending.changes.length) {
        const committed = await flushChanges(trx, pending.changes, ctx.clock.now());
        // First of the after-commit tasks: tills hear of the change before slower work (mail) runs.
        pending.afterCommit.unshift(() => ctx.realtime.committed(committed));
      }
      return out;
    });
  let result: T;
  for (let n = 1; ; n++) {
    try {
      result = await attempt();
      break;
    } catch (err) {
      // A Postgres deadlock or serialization failure rolled everything back: run it all again.
      if (n >= MAX_ATTEMPTS || !isRetryableTransactionError(err)) throw err;
      ctx.log.warn({ err, req_id: ctx.requestId, attempt: n }, 'transaction retried after a deadlock');
    }
  }
  for (const task of pending.afterCommit) {
    try {
      await task();
    } catch (err) {
      ctx.log.error({ err, req_id: ctx.requestId }, 'after-commit task failed');
    }
  }
  return result;
}

/** Run `task` after the current transaction commits, or straight away when there is none. */
export function afterCommit(ctx: Pick<TransactionScope, 'log' | 'requestId' | 'pending'>, task: () => unknown): void {
  if (ctx.pending) ctx.pending.afterCommit.push(task);
  else
    void Promise.resolve()
      .then(task)
      .catch((err) => ctx.log.error({ err, req_id: ctx.requestId }, 'after-commit task failed'));
}

/**
 * Run `fn` inside a savepoint of the current transaction: if it throws, its writes are rolled back
 * and so are the change-log entries and after-commit tasks it noted; the error is rethrown and the
 * transaction goes on. (Names nest: SQLite's group commit and Postgres both allow it.)
 */
export async function withSavepoint<T>(ctx: Pick<TransactionScope, 'db' | 'pending'>, fn: () => Promise<T>): Promise<T> {
  const pending = ctx.pending;
  if (!pending) throw new Error('withSavepoint must run inside withTransaction');
  const marks = { changes: pending.changes.length, afterCommit: pending.afterCommit.length, stock: pending.stock?.length ?? 0 };
  await sql`savepoint work`.execute(ctx.db);
  try {
    const out = await fn();
    await sql`release savepoint work`.execute(ctx.db);
    return out;
  } catch (err) {
    await sql`rollback to savepoint work`.execute(ctx.db);
    await sql`release savepoint work`.execute(ctx.db);
    pending.changes.length = marks.changes;
    pending.afterCommit.length = marks.afterCommit;
    if (pending.stock) pending.stock.length = marks.stock;
    throw err;
  }
}

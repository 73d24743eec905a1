/**
 * `withTransaction` runs `fn` in a transaction, or inside the caller's one when there already is
 * one, so verbs compose. Change-log entries noted during `fn` are recorded last, before commit.
 * Side effects that must not happen unless the data is committed (messages, websocket pokes,
 * events) are queued with `afterCommit` and run once the outermost commit is done. On Postgres a
 * transaction that loses a deadlock is run again (its queued effects with it, never twice).
 */
import type { ServiceContext, TxState } from '../lib/context.js';
import { flushChanges } from './change-log.js';
import { isRetryableTransactionError } from './dialect.js';

const MAX_ATTEMPTS = 3;

export async function withTransaction<T>(ctx: ServiceContext, fn: (trx: ServiceContext) => Promise<T>): Promise<T> {
  if (ctx.tx) return fn(ctx);
  let tx: TxState = { afterCommit: [], changes: [] };
  const attempt = () =>
    ctx.transact(async (trx) => {
      tx = { afterCommit: [], changes: [] };
      const out = await fn({ ...ctx, db: trx, tx });
      if (tx.changes.length) {
        const committed = await flushChanges(trx, tx.changes, ctx.clock.now());
        // First of the after-commit tasks: tills hear of the change before slower work (mail) runs.
        tx.afterCommit.unshift(() => ctx.realtime.committed(committed));
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
  for (const task of tx.afterCommit) {
    try {
      await task();
    } catch (err) {
      ctx.log.error({ err, req_id: ctx.requestId }, 'after-commit task failed');
    }
  }
  return result;
}

/** Run `task` after the current transaction commits, or straight away when there is none. */
export function afterCommit(ctx: ServiceContext, task: () => unknown): void {
  if (ctx.tx) ctx.tx.afterCommit.push(task);
  else
    void Promise.resolve()
      .then(task)
      .catch((err) => ctx.log.error({ err, req_id: ctx.requestId }, 'after-commit task failed'));
}

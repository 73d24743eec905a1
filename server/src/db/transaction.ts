/**
 * `withTransaction` runs `fn` in a transaction, or inside the caller's one when there already is
 * one, so verbs compose. Change-log entries noted during `fn` are recorded last, before commit. Side effects that must not happen unless the data is committed (messages,
 * websocket pokes, events) are queued with `afterCommit` and run once the outermost commit is done.
 */
import type { ServiceContext, TxState } from '../lib/context.js';
import { flushChanges } from './change-log.js';

export async function withTransaction<T>(ctx: ServiceContext, fn: (trx: ServiceContext) => Promise<T>): Promise<T> {
  if (ctx.tx) return fn(ctx);
  const tx: TxState = { afterCommit: [], changes: [] };
  const result = await ctx.transact(async (trx) => {
    const out = await fn({ ...ctx, db: trx, tx });
    if (tx.changes.length) {
      const committed = await flushChanges(trx, tx.changes, ctx.clock.now());
      // First of the after-commit tasks: tills hear of the change before slower work (mail) runs.
      tx.afterCommit.unshift(() => ctx.realtime.committed(committed));
    }
    return out;
  });
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

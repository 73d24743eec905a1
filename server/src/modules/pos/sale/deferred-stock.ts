/**
 * A store's pushes written together (sync/push, issue 49) each move the same stock rows: ten pushes
 * of a batch updated each row ten times in one transaction, and from the second time on PostgreSQL
 * checks the row's foreign keys again and writes one more row version behind every index (a third
 * of a push's write, docs/benchmarks.md). While a batch defers (`deferSaleStock`), a sale set's stock
 * moves are kept in the transaction's pending commit instead (a push's savepoint rolled back drops
 * its own, db/transaction.ts), the next set reads its locked stock rows plus what is kept
 * (`withDeferredStock`), and `writeDeferredStock` writes them all in one update per store before
 * anything else reads the rows. The rows are locked by the first set's read, as without deferral.
 */
import { type SqlBool, sql } from 'kysely';
import { orgIdCheck, updateWrite, writeTogether } from '../../../db/dialect.js';
import type { PendingCommit } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';

type Tx = Pick<AuthedContext, 'db' | 'dialect'> & { pending?: PendingCommit };

/** From now on in this transaction, sale sets keep their stock moves for `writeDeferredStock`. */
export function deferSaleStock(tx: Tx & { pending: PendingCommit }): void {
  tx.pending.stock ??= [];
}

/** The stock rows as read under their lock, moved on by what this transaction has kept of the store's. */
export function withDeferredStock(tx: Tx, scope: { orgId: string; storeId: string }, read: Map<string, number>): Map<string, number> {
  for (const s of tx.pending?.stock ?? [])
    if (s.orgId === scope.orgId && s.storeId === scope.storeId && read.has(s.productId))
      read.set(s.productId, read.get(s.productId)! + s.add);
  return read;
}

/** Write what was kept, one update a store (each product's sum), and stop deferring. */
export async function writeDeferredStock(tx: Tx): Promise<void> {
  const kept = tx.pending?.stock;
  if (!kept) return;
  delete tx.pending!.stock;
  const stores = new Map<string, { orgId: string; storeId: string; now: number; sums: Map<string, number> }>();
  for (const s of kept) {
    const key = `${s.orgId}/${s.storeId}`;
    const store = stores.get(key) ?? { orgId: s.orgId, storeId: s.storeId, now: s.now, sums: new Map<string, number>() };
    store.now = Math.max(store.now, s.now);
    store.sums.set(s.productId, (store.sums.get(s.productId) ?? 0) + s.add);
    stores.set(key, store);
  }
  for (const { orgId, storeId, now, sums } of stores.values()) await writeTogether(tx.db, [stockWrite(tx, { orgId, storeId }, sums, now)]);
}

/** The stock rows' update: each product's row moved by its sum (a product in two sales is updated once). */
export function stockWrite(
  tx: Pick<Tx, 'dialect'>,
  { orgId, storeId }: { orgId: string; storeId: string },
  delta: Map<string, number>,
  now: number,
) {
  return updateWrite(
    'product_stock',
    // orgIdCheck: SQLite finds each row by its product, whatever its statistics say.
    {
      key: 'product_id',
      add: 'qty',
      where: sql<SqlBool>`${orgIdCheck(tx.dialect, 'product_stock.org_id', orgId)} and product_stock.store_id = ${storeId}`,
      now,
    },
    [...delta].filter(([, d]) => d !== 0).map(([key, add]) => ({ key, add })),
  );
}

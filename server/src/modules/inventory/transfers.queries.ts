/** Stock transfers (issue 54, services/transfers.ts): the destination store and the store's list. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { StockTransferTable } from '../../db/tables/inventory.table.js';

export function orgStore(db: Kysely<Database>, orgId: string, storeId: string) {
  return db
    .selectFrom('stores')
    .select(['id', 'name', 'is_active'])
    .where('org_id', '=', orgId)
    .where('id', '=', storeId)
    .executeTakeFirst();
}

export async function insertTransfer(db: Kysely<Database>, row: StockTransferTable): Promise<void> {
  await db.insertInto('stock_transfers').values(row).execute();
}

/** The transfers that left (`out`) or reached (`in`) the store, or both, with both stores' names: the filter and the ordered list. */
export function storeTransfers(db: Kysely<Database>, orgId: string, storeId: string, direction: 'out' | 'in' | undefined) {
  const base = db
    .selectFrom('stock_transfers as t')
    .innerJoin('stores as f', (j) => j.onRef('f.org_id', '=', 't.org_id').onRef('f.id', '=', 't.from_store_id'))
    .innerJoin('stores as s', (j) => j.onRef('s.org_id', '=', 't.org_id').onRef('s.id', '=', 't.to_store_id'))
    .where('t.org_id', '=', orgId)
    .where((eb) => {
      if (direction === 'out') return eb('t.from_store_id', '=', storeId);
      if (direction === 'in') return eb('t.to_store_id', '=', storeId);
      return eb.or([eb('t.from_store_id', '=', storeId), eb('t.to_store_id', '=', storeId)]);
    });
  const ordered = base
    .selectAll('t')
    .select(['f.name as from_name', 's.name as to_name'])
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc');
  return { filtered: base.select('t.id'), ordered };
}

/** Reads of batches, and a batch as the API and the till replica see it. */
import type { Batch } from '@duka/shared';
import { fromCents } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { BatchRow } from '../../db/tables/batches.table.js';
import { iso } from '../../lib/clock.js';

export type BatchWithName = BatchRow & { product_name: string };

export const toBatch = (r: BatchWithName): Batch => ({
  id: r.id,
  store_id: r.store_id,
  product_id: r.product_id,
  product_name: r.product_name,
  lot_number: r.lot_number,
  expiry_date: r.expiry_date,
  qty_on_hand: Number(r.qty_on_hand),
  cost_price: fromCents(Number(r.cost_price)),
  status: r.status,
  supplier_id: r.supplier_id,
  delivery_id: r.delivery_id,
  source_batch_id: r.source_batch_id,
  transaction_id: r.transaction_id,
  received_at: iso(Number(r.received_at)),
  updated_at: iso(Number(r.updated_at)),
});

/** A store's batches with their product's name (every row, any status: callers narrow). */
export function storeBatches(db: Kysely<Database>, orgId: string, storeId: string) {
  return db
    .selectFrom('batches as b')
    .innerJoin('products as p', 'p.id', 'b.product_id')
    .selectAll('b')
    .select('p.name as product_name')
    .where('b.org_id', '=', orgId)
    .where('b.store_id', '=', storeId);
}

/** Batches a till holds: its store's lots (not quarantine rows) that are not yet disposed of. */
export const tillBatches = (db: Kysely<Database>, orgId: string, storeId: string) =>
  storeBatches(db, orgId, storeId).where('b.source_batch_id', 'is', null).where('b.status', '!=', 'disposed');

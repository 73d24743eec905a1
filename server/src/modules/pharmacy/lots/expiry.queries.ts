/** The daily expiry job's statements: which organisations hold batches, which of their batches are due, and an alert's claim. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import { crossOrg } from '../../../db/tenant-scope-check.js';

export interface BatchOrganisation {
  id: string;
  timezone: string;
  expiry_alert_days: number;
}

/** Organisations that hold any batch: the only ones the job has anything to do for (a scan of every shop). */
export function batchOrganisations(db: Kysely<Database>): Promise<BatchOrganisation[]> {
  return db
    .selectFrom('organisations as o')
    .select(['o.id', 'o.timezone', 'o.expiry_alert_days'])
    .where((eb) => eb.exists(eb.selectFrom('batches as b').select('b.id').whereRef('b.org_id', '=', 'o.id')))
    .orderBy('o.id')
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

export type DueBatch = BatchRow & { product_name: string; product_alert_days: number | null };

/**
 * An organisation's sellable batches that may be due: expiring on or before `today`, or not yet
 * alerted and expiring by `horizon` (today plus the longest alert window). A coarse filter: the
 * shared rules decide. By store, then expiry, product and lot, as the notices list them.
 */
export function dueBatches(db: Kysely<Database>, orgId: string, today: string, horizon: string): Promise<DueBatch[]> {
  return db
    .selectFrom('batches as b')
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'b.product_id').onRef('p.org_id', '=', 'b.org_id'))
    .selectAll('b')
    .select(['p.name as product_name', 'p.expiry_alert_days as product_alert_days'])
    .where('b.org_id', '=', orgId)
    .where('b.status', '=', 'sellable')
    .where('b.expiry_date', '<=', horizon)
    .where((eb) => eb.or([eb('b.expiry_date', '<=', today), eb('b.expiry_alerted_at', 'is', null)]))
    .orderBy('b.store_id')
    .orderBy('b.expiry_date')
    .orderBy('p.name')
    .orderBy('b.lot_number')
    .orderBy('b.id')
    .execute();
}

/**
 * Claims a batch's expiry alert: `expiry_alerted_at` set from null, only while the batch is still
 * sellable, holds units and keeps the expiry date it was read with. Undefined when there is nothing
 * to claim (another instance claimed it, or the batch changed).
 */
export function claimExpiryAlert(db: Kysely<Database>, batch: { id: string; org_id: string; expiry_date: string }, now: number) {
  return db
    .updateTable('batches')
    .set({ expiry_alerted_at: now })
    .where('org_id', '=', batch.org_id)
    .where('id', '=', batch.id)
    .where('status', '=', 'sellable')
    .where('expiry_alerted_at', 'is', null)
    .where('expiry_date', '=', batch.expiry_date)
    .where('qty_on_hand', '>', 0)
    .returning(['qty_on_hand', 'lot_number'])
    .executeTakeFirst();
}

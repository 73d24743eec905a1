/** Reading and updating batches, and a batch as the API and the till replica see it. */
import type { Batch, BatchMovement, BatchStatus, ExpiringBatch, ExpiringQuery, ListBatchesQuery, PageMeta } from '@duka/shared';
import { daysToExpiry, fromCents, fromCount, lineAmount, pageMeta, type Unit } from '@duka/shared';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { BatchMovementRow, BatchRow } from '../../../db/tables/batches.table.js';
import { iso } from '../../../lib/clock.js';
import { addDays } from '../../../lib/time.js';
import { countedPage, onPage } from '../../../db/page.js';

/** A batch with its product's name and unit (its quantities are counts of that unit). */
export type BatchWithName = BatchRow & { product_name: string; unit: Unit };

/** A lot number as printed, matched ignoring case ("a-7" is lot A-7): receipts, recalls and corrections alike. */
export const sameLot = (column: string, lot: string) => sql<boolean>`lower(${sql.ref(column)}) = ${lot.toLowerCase()}`;
/** The same match, for lots already read. */
export const sameLotNumber = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const toBatch = (r: BatchWithName): Batch => ({
  id: r.id,
  store_id: r.store_id,
  product_id: r.product_id,
  product_name: r.product_name,
  lot_number: r.lot_number,
  expiry_date: r.expiry_date,
  unit: r.unit,
  qty_on_hand: fromCount(Number(r.qty_on_hand), r.unit),
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
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'b.product_id').onRef('p.org_id', '=', 'b.org_id'))
    .selectAll('b')
    .select(['p.name as product_name', 'p.unit'])
    .where('b.org_id', '=', orgId)
    .where('b.store_id', '=', storeId);
}

/** A batch of this product in this store of the organisation, or undefined. */
export function findProductBatch(db: Kysely<Database>, b: { id: string; orgId: string; storeId: string; productId: string }) {
  return db
    .selectFrom('batches')
    .selectAll()
    .where('id', '=', b.id)
    .where('org_id', '=', b.orgId)
    .where('store_id', '=', b.storeId)
    .where('product_id', '=', b.productId)
    .executeTakeFirst();
}

/** The store's main batch of a lot, if any; lot numbers match ignoring case ("a-7" is lot A-7). */
export function findLot(
  db: Kysely<Database>,
  at: { orgId: string; storeId: string; productId: string },
  lotNumber: string,
): Promise<BatchRow | undefined> {
  return db
    .selectFrom('batches')
    .selectAll()
    .where('org_id', '=', at.orgId)
    .where('store_id', '=', at.storeId)
    .where('product_id', '=', at.productId)
    .where(sameLot('lot_number', lotNumber))
    .where('source_batch_id', 'is', null)
    .executeTakeFirst();
}

/** Another main batch of the product in the store already numbered `lot` (ignoring case), if any. */
export function findOtherLot(
  db: Kysely<Database>,
  batch: { id: string; org_id: string; store_id: string; product_id: string },
  lot: string,
) {
  const lower = lot.toLowerCase();
  return db
    .selectFrom('batches')
    .select('id')
    .where('org_id', '=', batch.org_id)
    .where('store_id', '=', batch.store_id)
    .where('product_id', '=', batch.product_id)
    .where('source_batch_id', 'is', null)
    .where('id', '!=', batch.id)
    .where((eb) => eb(eb.fn('lower', ['lot_number']), '=', lower))
    .executeTakeFirst();
}

/**
 * One batch's row after a move (the caller holds its stock lock): units changed by `qty` in SQL,
 * the status after it, a corrected lot or expiry, and `expiry_alerted_at` written null when the row
 * after the move has no alert (a new expiry re-arms it).
 */
export async function updateMovedBatch(
  db: Kysely<Database>,
  orgId: string,
  batchId: string,
  m: {
    qty: number;
    status: BatchStatus;
    now: number;
    set: Partial<Pick<BatchRow, 'lot_number' | 'expiry_date'>> | undefined;
    alertCleared: boolean;
  },
): Promise<void> {
  await db
    .updateTable('batches')
    .set({
      qty_on_hand: sql<number>`qty_on_hand + ${m.qty}`,
      status: m.status,
      updated_at: m.now,
      ...m.set,
      ...(m.alertCleared ? { expiry_alerted_at: null } : {}),
    })
    .where('org_id', '=', orgId)
    .where('id', '=', batchId)
    .execute();
}

/** Batches a till holds: its store's lots (not quarantine rows) that are not yet disposed of. */
export const tillBatches = (db: Kysely<Database>, orgId: string, storeId: string) =>
  storeBatches(db, orgId, storeId).where('b.source_batch_id', 'is', null).where('b.status', '!=', 'disposed');

/** A page of the store's batches by expiry, then lot (a lot's quarantine rows after it). */
export async function pageBatches(
  db: Kysely<Database>,
  scope: { orgId: string; storeId: string; today: string },
  q: ListBatchesQuery,
): Promise<{ items: Batch[]; meta: PageMeta }> {
  let base = storeBatches(db, scope.orgId, scope.storeId);
  if (q.product_id) base = base.where('b.product_id', '=', q.product_id);
  if (q.status) base = base.where('b.status', '=', q.status);
  if (q.expiring_within_days !== undefined)
    base = base.where('b.status', '=', 'sellable').where('b.expiry_date', '<=', addDays(scope.today, q.expiring_within_days));
  if (q.lot_number) {
    const lot = q.lot_number.toLowerCase();
    base = base.where((eb) => eb(eb.fn('lower', ['b.lot_number']), '=', lot));
  }
  if (q.quarantine !== undefined) base = base.where('b.source_batch_id', q.quarantine ? 'is not' : 'is', null);
  const { rows, meta } = await countedPage(
    base,
    base.orderBy('b.expiry_date').orderBy('b.lot_number').orderBy('b.created_at').orderBy('b.id'),
    q,
  );
  return { items: rows.map(toBatch), meta };
}

const toMovement = (r: BatchMovementRow & { first_name: string | null; last_name: string | null }, unit: Unit): BatchMovement => ({
  id: r.id,
  kind: r.kind,
  qty: fromCount(Number(r.qty), unit),
  qty_after: fromCount(Number(r.qty_after), unit),
  stock_change: fromCount(Number(r.stock_change), unit),
  status_from: r.status_from,
  status_to: r.status_to,
  transaction_id: r.transaction_id,
  delivery_id: r.delivery_id,
  recall_id: r.recall_id,
  reason: r.reason,
  method: r.method,
  witness: r.witness,
  note: r.note,
  details: r.details == null ? null : (JSON.parse(r.details) as Record<string, unknown>),
  user_id: r.user_id,
  user_name: r.first_name == null ? null : `${r.first_name} ${r.last_name ?? ''}`.trim(),
  created_at: iso(Number(r.created_at)),
});

/** The newest `limit` ledger lines of a batch (as read), newest first, with how many it has in all. */
export async function batchMovements(
  db: Kysely<Database>,
  batch: { id: string; org_id: string; unit: Unit },
  limit: number,
): Promise<{ count: number; movements: BatchMovement[] }> {
  const [{ count }, rows] = await Promise.all([
    db
      .selectFrom('batch_movements')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('org_id', '=', batch.org_id)
      .where('batch_id', '=', batch.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('batch_movements as m')
      .leftJoin('users as u', 'u.id', 'm.user_id')
      .selectAll('m')
      .select(['u.first_name', 'u.last_name'])
      .where('m.org_id', '=', batch.org_id)
      .where('m.batch_id', '=', batch.id)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return { count: Number(count), movements: rows.map((r) => toMovement(r, batch.unit)) };
}

/**
 * Sellable lots holding units whose expiry is at most `q.days` after `today` (those already past
 * it included, until the midnight job marks them), a page by expiry, with totals over all of them.
 */
export async function pageExpiring(db: Kysely<Database>, scope: { orgId: string; storeId: string; today: string }, q: ExpiringQuery) {
  const base = db
    .selectFrom('batches as b')
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'b.product_id').onRef('p.org_id', '=', 'b.org_id'))
    .where('b.org_id', '=', scope.orgId)
    .where('b.store_id', '=', scope.storeId)
    .where('b.status', '=', 'sellable')
    .where('b.qty_on_hand', '>', 0)
    .where('b.expiry_date', '<=', addDays(scope.today, q.days));
  const [totals, rows] = await Promise.all([
    // Per unit: kilos and pieces do not add up, and a measured sum of count × price is in thousandths.
    base
      .select((eb) => [
        'p.unit',
        eb.fn.countAll<number>().as('batches'),
        eb.fn.coalesce(eb.fn.sum<number>('b.qty_on_hand'), eb.lit(0)).as('qty'),
        eb.fn.coalesce(eb.fn.sum<number>(eb('b.qty_on_hand', '*', eb.ref('b.cost_price'))), eb.lit(0)).as('cost'),
        eb.fn.coalesce(eb.fn.sum<number>(eb('b.qty_on_hand', '*', eb.ref('p.selling_price'))), eb.lit(0)).as('price'),
      ])
      .groupBy('p.unit')
      .execute(),
    base
      .select([
        'b.id',
        'b.product_id',
        'p.name',
        'p.unit',
        'b.lot_number',
        'b.expiry_date',
        'b.qty_on_hand',
        'b.cost_price',
        'p.selling_price',
      ])
      .orderBy('b.expiry_date')
      .orderBy('p.name')
      .orderBy('b.lot_number')
      .orderBy('b.id')
      .$call(onPage(q))
      .execute(),
  ]);
  const items: ExpiringBatch[] = rows.map((r) => {
    const count = Number(r.qty_on_hand);
    const cost = Number(r.cost_price);
    const price = Number(r.selling_price);
    return {
      batch_id: r.id,
      product_id: r.product_id,
      product_name: r.name,
      lot_number: r.lot_number,
      expiry_date: r.expiry_date,
      days_to_expiry: daysToExpiry(r.expiry_date, scope.today),
      unit: r.unit,
      qty: fromCount(count, r.unit),
      cost_price: fromCents(cost),
      selling_price: fromCents(price),
      value_at_cost: fromCents(lineAmount(cost, count, r.unit)),
      value_at_price: fromCents(lineAmount(price, count, r.unit)),
    };
  });
  // A measured group's value is its sum (in thousandths of a cent) rounded once to the shilling.
  const value = (t: { unit: Unit }, sum: unknown) => lineAmount(Number(sum), 1, t.unit);
  return {
    items,
    meta: {
      ...pageMeta(
        q.page,
        q.page_size,
        totals.reduce((a, t) => a + Number(t.batches), 0),
      ),
      today: scope.today,
      days: q.days,
      total_qty: totals.length > 1 ? null : fromCount(Number(totals[0]?.qty ?? 0), totals[0]?.unit ?? 'piece'),
      total_value_at_cost: fromCents(totals.reduce((a, t) => a + value(t, t.cost), 0)),
      total_value_at_price: fromCents(totals.reduce((a, t) => a + value(t, t.price), 0)),
    },
  };
}

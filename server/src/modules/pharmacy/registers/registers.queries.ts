/** Reads of quarantine, recalls and the batch ledger for the pharmacy registers (issue 14). */
import { fromCents, fromCount, type Unit } from '@duka/shared';
import type { ListQuarantineQuery, ListRecallsQuery, PageMeta, QuarantineItem, Recall, RecallDetail, RecallSale } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { sameLot } from '../lots/batches.queries.js';
import { iso } from '../../../lib/clock.js';
import { countedPage } from '../../../db/page.js';

/** Lot numbers match ignoring case (spaces at the ends are trimmed on input). */

const fullName = (first: string | null, last: string | null) => (first == null ? null : `${first} ${last ?? ''}`.trim());

/** The store's quarantine rows still holding units, oldest first. */
export async function pageQuarantine(
  db: Kysely<Database>,
  orgId: string,
  storeId: string,
  q: ListQuarantineQuery,
): Promise<{ items: QuarantineItem[]; meta: PageMeta }> {
  let base = db
    .selectFrom('batches as b')
    .where('b.org_id', '=', orgId)
    .where('b.store_id', '=', storeId)
    .where('b.status', '=', 'quarantined')
    .where('b.source_batch_id', 'is not', null)
    .where('b.qty_on_hand', '>', 0);
  if (q.product_id) base = base.where('b.product_id', '=', q.product_id);
  const { rows, meta } = await countedPage(
    base,
    base
      .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'b.product_id').onRef('p.org_id', '=', 'b.org_id'))
      .leftJoin('transactions as t', (j) => j.onRef('t.id', '=', 'b.transaction_id').onRef('t.org_id', '=', 'b.org_id'))
      .selectAll('b')
      .select(['p.name as product_name', 'p.unit', 't.receipt_number'])
      .orderBy('b.created_at')
      .orderBy('b.id'),
    q,
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      product_id: r.product_id,
      product_name: r.product_name,
      lot_number: r.lot_number,
      expiry_date: r.expiry_date,
      qty: fromCount(Number(r.qty_on_hand), r.unit),
      cost_price: fromCents(Number(r.cost_price)),
      source_batch_id: r.source_batch_id,
      transaction_id: r.transaction_id,
      receipt_number: r.receipt_number ?? null,
      quarantined_at: iso(Number(r.created_at)),
    })),
    meta,
  };
}

function recallsOf(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('recalls as r')
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'r.product_id').onRef('p.org_id', '=', 'r.org_id'))
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('r')
    .select(['p.name as product_name', 'p.unit', 'u.first_name', 'u.last_name'])
    .where('r.org_id', '=', orgId);
}

type RecallRow = Awaited<ReturnType<ReturnType<typeof recallsOf>['executeTakeFirstOrThrow']>>;

const toRecall = (r: RecallRow): Recall => ({
  id: r.id,
  product_id: r.product_id,
  product_name: r.product_name,
  lot_number: r.lot_number,
  reason: r.reason,
  batch_count: Number(r.batch_count),
  units: fromCount(Number(r.units), r.unit),
  user_id: r.user_id,
  user_name: fullName(r.first_name, r.last_name),
  created_at: iso(Number(r.created_at)),
});

export async function pageRecalls(db: Kysely<Database>, orgId: string, q: ListRecallsQuery): Promise<{ items: Recall[]; meta: PageMeta }> {
  let base = db.selectFrom('recalls').where('org_id', '=', orgId);
  if (q.product_id) base = base.where('product_id', '=', q.product_id);
  let page = recallsOf(db, orgId);
  if (q.product_id) page = page.where('r.product_id', '=', q.product_id);
  const { rows, meta } = await countedPage(base, page.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc'), q);
  return { items: rows.map(toRecall), meta };
}

/** Every sale of the organisation that dispensed this lot (voided ones never left the shop), oldest first. */
export async function salesOfLot(
  db: Kysely<Database>,
  orgId: string,
  product: { id: string; unit: Unit },
  lot: string,
): Promise<RecallSale[]> {
  const rows = await db
    .selectFrom('batch_movements as l')
    .innerJoin('transactions as t', (j) => j.onRef('t.id', '=', 'l.transaction_id').onRef('t.org_id', '=', 'l.org_id'))
    .innerJoin('stores as s', (j) => j.onRef('s.id', '=', 't.store_id').onRef('s.org_id', '=', 't.org_id'))
    .leftJoin('customers as c', (j) => j.onRef('c.id', '=', 't.customer_id').onRef('c.org_id', '=', 't.org_id'))
    .select([
      't.id',
      't.receipt_number',
      't.store_id',
      's.name as store_name',
      't.created_at',
      't.status',
      't.customer_name',
      't.customer_phone',
      'c.name as c_name',
      'c.phone as c_phone',
    ])
    // A dispensing line is the sale's lot, as sold: its units taken are -qty.
    .select((eb) => eb.fn.sum<number>(eb.neg(eb.ref('l.qty'))).as('qty'))
    .where('l.org_id', '=', orgId)
    .where('l.kind', '=', 'dispensed')
    .where('t.org_id', '=', orgId)
    .where('t.status', '!=', 'void')
    .where('l.product_id', '=', product.id)
    .where(sameLot('l.lot_number', lot))
    .groupBy([
      't.id',
      't.receipt_number',
      't.store_id',
      's.name',
      't.created_at',
      't.status',
      't.customer_name',
      't.customer_phone',
      'c.name',
      'c.phone',
    ])
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({
    transaction_id: r.id,
    receipt_number: r.receipt_number,
    store_id: r.store_id,
    store_name: r.store_name,
    // The day the sale is booked on: a pushed sale's own time, unless the till's clock was wrong (a `clock` conflict).
    sold_at: iso(Number(r.created_at)),
    status: r.status,
    qty: fromCount(Number(r.qty), product.unit),
    customer_name: r.customer_name ?? r.c_name ?? null,
    customer_phone: r.customer_phone ?? r.c_phone ?? null,
  }));
}

/** A recall with the batches it moved per store and the sales that dispensed its lot. */
export async function recallDetail(db: Kysely<Database>, orgId: string, id: string): Promise<RecallDetail | undefined> {
  const recall = await recallsOf(db, orgId).where('r.id', '=', id).executeTakeFirst();
  if (!recall) return undefined;
  const moved = await db
    .selectFrom('batch_movements as m')
    .innerJoin('batches as b', (j) => j.onRef('b.id', '=', 'm.batch_id').onRef('b.org_id', '=', 'm.org_id'))
    .innerJoin('stores as s', (j) => j.onRef('s.id', '=', 'm.store_id').onRef('s.org_id', '=', 'm.org_id'))
    .select([
      'm.batch_id',
      'm.store_id',
      's.name as store_name',
      'm.status_from',
      'm.qty_after',
      'm.stock_change',
      'b.lot_number',
      'b.expiry_date',
      'b.source_batch_id',
    ])
    .where('m.org_id', '=', orgId)
    .where('m.recall_id', '=', id)
    .orderBy('s.name')
    .orderBy('m.store_id')
    .orderBy('m.id')
    .execute();
  const stores: RecallDetail['stores'] = [];
  for (const m of moved) {
    let store = stores.at(-1);
    if (store?.store_id !== m.store_id)
      stores.push((store = { store_id: m.store_id, store_name: m.store_name, batches: [], stock_removed: 0 }));
    store.stock_removed -= fromCount(Number(m.stock_change), recall.unit);
    store.batches.push({
      batch_id: m.batch_id,
      lot_number: m.lot_number,
      expiry_date: m.expiry_date,
      status_before: m.status_from ?? 'sellable',
      qty: fromCount(Number(m.qty_after), recall.unit),
      quarantine: m.source_batch_id !== null,
    });
  }
  return {
    ...toRecall(recall),
    stores,
    sales: await salesOfLot(db, orgId, { id: recall.product_id, unit: recall.unit }, recall.lot_number),
  };
}

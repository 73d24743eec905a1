/** The rows of stock-takes (migration 0046): a count, its lines with their products, its counts. */
import type { Unit } from '@duka/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { StockTakeCountTable, StockTakeLineTable, StockTakeRow, StockTakeTable } from '../../../db/tables/stock-takes.table.js';
import { stockIn } from '../inventory.queries.js';

type Db = Kysely<Database>;
export interface TakeKey {
  orgId: string;
  storeId: string;
}

/** The products a scope counts: active, stocked, not batch-tracked (lots are counted lot by lot in pharmacy). */
export function countableProducts(db: Db, orgId: string, where: { categoryId?: string; ids?: string[] }) {
  let q = db.selectFrom('products').select(['id', 'is_active', 'is_service', 'track_batches']).where('org_id', '=', orgId).orderBy('name');
  if (where.categoryId) q = q.where('category_id', '=', where.categoryId);
  if (where.ids) q = q.where('id', 'in', where.ids);
  else q = q.where('is_active', '=', 1).where('is_service', '=', 0).where('track_batches', '=', 0);
  return q.execute();
}

export async function insertStockTake(db: Db, take: StockTakeTable, productIds: string[]): Promise<void> {
  await db.insertInto('stock_takes').values(take).execute();
  const lines = productIds.map((product_id) => ({ org_id: take.org_id, stock_take_id: take.id, product_id, counted: 0 }));
  // A catalogue of thousands goes in slices: SQLite binds at most 32,766 parameters per statement.
  for (let i = 0; i < lines.length; i += 1000)
    await db
      .insertInto('stock_take_lines')
      .values(lines.slice(i, i + 1000))
      .execute();
}

/** A count of the store, or undefined: another organisation's or another store's is not found. */
export const findStockTake = (db: Db, key: TakeKey, id: string): Promise<StockTakeRow | undefined> =>
  db
    .selectFrom('stock_takes')
    .selectAll()
    .where('org_id', '=', key.orgId)
    .where('store_id', '=', key.storeId)
    .where('id', '=', id)
    .executeTakeFirst();

export type LineWithProduct = Selectable<StockTakeLineTable> & {
  name: string;
  unit: Unit;
  product_cost: number;
  stock: number;
};

/** Lines of the counts `ids` with each product's name, unit, cost and the store's level now. */
export async function linesOf(db: Db, key: TakeKey, ids: string[]): Promise<LineWithProduct[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('stock_take_lines as l')
    .innerJoin('products as p', (j) => j.onRef('p.org_id', '=', 'l.org_id').onRef('p.id', '=', 'l.product_id'))
    .selectAll('l')
    .select((eb) => ['p.name', 'p.unit', 'p.cost_price as product_cost', stockIn(eb, key.storeId).as('stock')])
    .where('l.org_id', '=', key.orgId)
    .where('l.stock_take_id', 'in', ids)
    .orderBy('p.name')
    .orderBy('l.product_id')
    .execute();
  return rows.map((r) => ({ ...r, stock: Number(r.stock ?? 0), product_cost: Number(r.product_cost) })) as LineWithProduct[];
}

/** Which of these count ids the organisation has recorded already (a till's replay). */
export async function recordedCountIds(db: Db, orgId: string, ids: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom('stock_take_counts').select('id').where('org_id', '=', orgId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The count, unless its id is recorded already; true when it was written. */
export async function insertCount(db: Db, count: StockTakeCountTable): Promise<boolean> {
  const done = await db
    .insertInto('stock_take_counts')
    .values(count)
    .onConflict((oc) => oc.columns(['org_id', 'id']).doNothing())
    .executeTakeFirst();
  return Number(done.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Adds `qty` counts to a line; its first count also takes the store's level `stock` as expected
 * (a later count keeps the first's: `coalesce`).
 */
export async function addToLine(
  db: Db,
  key: { orgId: string; takeId: string; productId: string },
  qty: number,
  stock: number,
  now: number,
) {
  await db
    .updateTable('stock_take_lines')
    .set((eb) => ({
      counted: eb('counted', '+', qty),
      expected: eb.fn.coalesce('expected', eb.val(stock)),
      first_counted_at: eb.fn.coalesce('first_counted_at', eb.val(now)),
    }))
    .where('org_id', '=', key.orgId)
    .where('stock_take_id', '=', key.takeId)
    .where('product_id', '=', key.productId)
    .execute();
}

/** The store's level of one product now, in counts (0 where it has no row). */
export async function stockNow(db: Db, key: TakeKey, productId: string): Promise<number> {
  const row = await db
    .selectFrom('product_stock')
    .select('qty')
    .where('org_id', '=', key.orgId)
    .where('store_id', '=', key.storeId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return Number(row?.qty ?? 0);
}

/** Moves a count from `from` to `to` (open → applied or cancelled), once: false when it was not `from`. */
export async function closeStockTake(
  db: Db,
  key: TakeKey & { id: string },
  to: { status: 'applied' | 'cancelled'; uncounted: 'leave' | 'zero' | null; by: string | null; at: number },
): Promise<boolean> {
  const done = await db
    .updateTable('stock_takes')
    .set({ status: to.status, uncounted: to.uncounted, closed_by: to.by, closed_at: to.at })
    .where('org_id', '=', key.orgId)
    .where('store_id', '=', key.storeId)
    .where('id', '=', key.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

/** What apply did to one line. */
export async function settleLine(
  db: Db,
  key: { orgId: string; takeId: string; productId: string },
  set: { expected: number; change: number | null; cost_price: number },
) {
  await db
    .updateTable('stock_take_lines')
    .set(set)
    .where('org_id', '=', key.orgId)
    .where('stock_take_id', '=', key.takeId)
    .where('product_id', '=', key.productId)
    .execute();
}

/** The store's counts, newest first. */
export function listStockTakeRows(db: Db, key: TakeKey, q: { status?: StockTakeRow['status']; limit: number }) {
  let query = db
    .selectFrom('stock_takes')
    .selectAll()
    .where('org_id', '=', key.orgId)
    .where('store_id', '=', key.storeId)
    .orderBy('opened_at', 'desc')
    .orderBy('id')
    .limit(q.limit);
  if (q.status) query = query.where('status', '=', q.status);
  return query.execute();
}

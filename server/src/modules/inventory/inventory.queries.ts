import { fromBasisPoints, fromCents, fromCount, newId, stockInPacks } from '@duka/shared';
import type { Category, CreateCategoryInput, Product, UpdateCategoryInput } from '@duka/shared';
import type { ExpressionBuilder, Insertable, Kysely, Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { orgIdCheck } from '../../db/dialect.js';
import { iso } from '../../lib/clock.js';
import type { ServiceContext } from '../../lib/context.js';
import type { CategoryRow, ProductPackRow, ProductRow, ProductTable, StockAdjustmentRow } from '../../db/tables/inventory.table.js';
import { packsOf, toPack } from './packs.queries.js';
import { type FileAddress, keyUrl } from '../uploads/uploads.exports.js';

export function toCategory(row: CategoryRow & { product_count: number | string | null }): Category {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sort_order: row.sort_order,
    is_active: row.is_active === 1,
    product_count: Number(row.product_count ?? 0),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** A product row with its level in one store and its organisation's default alert window. */
export type ProductWithStock = ProductRow & { stock: number; org_expiry_alert_days: number };

/**
 * `files`: what an uploaded image's address is built from, now (services/product-image.ts): a
 * product keeps its upload's key, never the address of the server that answered at the time.
 * `packs`: the product's (`packsOf`).
 */
export function toProduct(row: ProductWithStock, files: FileAddress, packs: ProductPackRow[]): Product {
  const unit = row.unit;
  const stock = fromCount(Number(row.stock), unit);
  const reorderPoint = fromCount(row.reorder_point, unit);
  const isService = row.is_service === 1;
  const productPacks = packs.map((p) => toPack(p, unit));
  return {
    id: row.id,
    name: row.name,
    category_id: row.category_id,
    sku: row.sku,
    barcode: row.barcode,
    scale_code: row.scale_code,
    cost_price: fromCents(row.cost_price),
    selling_price: fromCents(row.selling_price),
    wholesale_price: row.wholesale_price == null ? null : fromCents(row.wholesale_price),
    wholesale_min_qty: row.wholesale_min_qty == null ? null : fromCount(row.wholesale_min_qty, unit),
    unit,
    stock,
    reorder_point: reorderPoint,
    packs: productPacks,
    stock_in_packs: stockInPacks({ stock, unit, is_service: isService, packs: productPacks }),
    image: row.image_key ? keyUrl(files, row.image_key) : row.image,
    tax_rate: fromBasisPoints(row.tax_rate),
    tax_code: row.tax_code,
    description: row.description,
    is_service: isService,
    is_active: row.is_active === 1,
    is_low_stock: !isService && stock <= reorderPoint,
    generic_name: row.generic_name,
    strength: row.strength,
    dosage_form: row.dosage_form,
    schedule: row.schedule,
    track_batches: row.track_batches === 1,
    expiry_alert_days: row.expiry_alert_days,
    // Only batches expire, so only a batch-tracked product has a window in force.
    effective_expiry_alert_days: row.track_batches === 1 ? (row.expiry_alert_days ?? Number(row.org_expiry_alert_days)) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Products as answered, with their packs: one read of the packs per organisation among them (one, but for the platform's lists). */
export async function toProducts(db: Kysely<Database>, rows: ProductWithStock[], files: FileAddress): Promise<Product[]> {
  const packs = new Map<string, ProductPackRow[]>();
  for (const orgId of new Set(rows.map((r) => r.org_id)))
    for (const [id, list] of await packsOf(
      db,
      orgId,
      rows.filter((r) => r.org_id === orgId).map((r) => r.id),
    ))
      packs.set(id, list);
  return rows.map((r) => toProduct(r, files, packs.get(r.id) ?? []));
}

/** Products with `stock` = their level in `storeId` (0 where no row yet) and the organisation's default expiry alert window. */
function withStock(db: Kysely<Database>, storeId: string | null) {
  return db
    .selectFrom('products as p')
    .innerJoin('organisations as o', 'o.id', 'p.org_id')
    .leftJoin('product_stock as ps', (join) =>
      join
        .onRef('ps.org_id', '=', 'p.org_id')
        .onRef('ps.product_id', '=', 'p.id')
        .on('ps.store_id', '=', storeId ?? ''),
    )
    .selectAll('p')
    .select('o.expiry_alert_days as org_expiry_alert_days')
    .select((eb) => eb.fn.coalesce('ps.qty', eb.lit(0)).as('stock'));
}

/**
 * Products of `orgId` with `stock` = their level in `storeId` (0 where no row yet) and the
 * organisation's default expiry alert window (for `effective_expiry_alert_days`).
 */
export const productsWithStock = (db: Kysely<Database>, orgId: string, storeId: string | null) =>
  withStock(db, storeId).where('p.org_id', '=', orgId);

export type ProductsDb = Database & { p: Database['products'] };
export type ProductsEb = ExpressionBuilder<ProductsDb, 'p'>;

/** The product's level in `storeId`, 0 where it has no row yet: one keyed lookup per product it is asked for. */
export const stockIn = (eb: ProductsEb, storeId: string) =>
  eb.fn.coalesce(
    eb
      .selectFrom('product_stock as ps')
      .select('ps.qty')
      .whereRef('ps.org_id', '=', 'p.org_id')
      .where('ps.store_id', '=', storeId)
      .whereRef('ps.product_id', '=', 'p.id'),
    eb.lit(0),
  );

/** The organisation's expiry alert window, beside each of its products. */
export const orgAlertDays = (eb: ProductsEb) =>
  eb.selectFrom('organisations as o').select('o.expiry_alert_days').whereRef('o.id', '=', 'p.org_id').$asScalar().$notNull();

/**
 * One product of `orgId` with its stock in `storeId`: `productsWithStock`'s row, with the stock and
 * the organisation's window read by subqueries. In a join, SQLite's planner on statistics taken while
 * each organisation had one product walked the whole catalogue through the (org_id, name) index
 * for every lookup; a query on products alone by `id = ?` goes by the primary key whatever the
 * statistics say (test/platform/planner-stats.test.ts).
 */
export const productQuery = (db: Kysely<Database>, orgId: string, storeId: string | null, id: string) =>
  db
    .selectFrom('products as p')
    .selectAll('p')
    .select((eb) => [orgAlertDays(eb).as('org_expiry_alert_days'), stockIn(eb, storeId ?? '').as('stock')])
    .where('p.id', '=', id)
    .where('p.org_id', '=', orgId);

/** A product of `orgId` only: another organisation's id is not found. */
export function findProduct(
  db: Kysely<Database>,
  orgId: string,
  storeId: string | null,
  id: string,
): Promise<ProductWithStock | undefined> {
  return productQuery(db, orgId, storeId, id).executeTakeFirst();
}

/** The organisation's products among `ids`, by id; another organisation's ids are simply absent. */
export async function orgProductsById(
  ctx: Pick<ServiceContext, 'db' | 'dialect'>,
  orgId: string,
  ids: string[],
): Promise<Map<string, ProductRow>> {
  if (ids.length === 0) return new Map();
  // Found by the primary key whatever SQLite's statistics say (a push's 300 of 50,000 products
  // walked through (org_id, name) took about 20 ms against 4): orgIdCheck.
  const rows = await ctx.db
    .selectFrom('products')
    .selectAll()
    .where(orgIdCheck(ctx.dialect, 'org_id', orgId))
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Ids of the batch-tracked products that follow the organisation's default alert window. */
export async function productIdsOnDefaultAlert(db: Kysely<Database>, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('products')
    .select('id')
    .where('org_id', '=', orgId)
    .where('track_batches', '=', 1)
    .where('expiry_alert_days', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

export function findCategory(db: Kysely<Database>, orgId: string, id: string) {
  return db.selectFrom('categories').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** The organisation's categories with how many products each holds (active or not), in display order. */
export function categoriesWithCounts(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('categories as c')
    .leftJoin('products as p', (join) => join.onRef('p.org_id', '=', 'c.org_id').onRef('p.category_id', '=', 'c.id'))
    .selectAll('c')
    .select((eb) => eb.fn.count<number>('p.id').as('product_count'))
    .where('c.org_id', '=', orgId)
    .groupBy(['c.org_id', 'c.id'])
    .orderBy('c.sort_order')
    .orderBy('c.name')
    .execute();
}

/** A new category of `orgId` (first in display order and active unless the input says otherwise); the row as written. */
export function insertCategory(db: Kysely<Database>, orgId: string, input: CreateCategoryInput, now: number): Promise<CategoryRow> {
  return db
    .insertInto('categories')
    .values({
      id: newId(),
      org_id: orgId,
      name: input.name,
      description: input.description ?? null,
      sort_order: input.sort_order ?? 0,
      is_active: input.is_active === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The fields present in `input`; the row as updated. */
export function updateCategoryRow(
  db: Kysely<Database>,
  at: { orgId: string; id: string },
  input: UpdateCategoryInput,
  now: number,
): Promise<CategoryRow> {
  return db
    .updateTable('categories')
    .set({
      name: input.name,
      description: input.description,
      sort_order: input.sort_order,
      is_active: input.is_active === undefined ? undefined : input.is_active ? 1 : 0,
      updated_at: now,
    })
    .where('org_id', '=', at.orgId)
    .where('id', '=', at.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A new product of `orgId`: the optional columns `fields` leaves out are null, its tax rate 18 %. */
export async function insertProduct(
  db: Kysely<Database>,
  p: { id: string; orgId: string; name: string; fields: Updateable<ProductTable>; now: number },
): Promise<void> {
  await db
    .insertInto('products')
    .values({
      id: p.id,
      org_id: p.orgId,
      name: p.name,
      category_id: null,
      sku: null,
      barcode: null,
      scale_code: null,
      wholesale_price: null,
      wholesale_min_qty: null,
      image: null,
      image_key: null,
      description: null,
      tax_rate: 1800,
      tax_code: null,
      generic_name: null,
      strength: null,
      dosage_form: null,
      schedule: null,
      expiry_alert_days: null,
      ...p.fields,
      created_at: p.now,
      updated_at: p.now,
    } as Insertable<ProductTable>)
    .execute();
}

/** A store of the organisation holding stock of the product (above or below zero), if there is one. */
export function storeHoldingStock(db: Kysely<Database>, orgId: string, productId: string) {
  return db
    .selectFrom('product_stock')
    .select('store_id')
    .where('org_id', '=', orgId)
    .where('product_id', '=', productId)
    .where('qty', '!=', 0)
    .limit(1)
    .executeTakeFirst();
}

/** A lot of the product still holding units, in stock or not (any status but disposed), if there is one. */
export function lotHoldingUnits(db: Kysely<Database>, orgId: string, productId: string) {
  return db
    .selectFrom('batches')
    .select(['lot_number', 'status'])
    .where('org_id', '=', orgId)
    .where('product_id', '=', productId)
    .where('qty_on_hand', '!=', 0)
    .where('status', '!=', 'disposed')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Price history: one row each time a product's prices or tax rate change. Sync reconciliation
 * prices an offline sale at the row in force at the moment of the sale (sync/push/services/reconcile.ts).
 */
export async function recordPrice(ctx: ServiceContext, p: ProductRow): Promise<void> {
  await ctx.db
    .insertInto('product_prices')
    .values({
      id: newId(),
      org_id: p.org_id,
      product_id: p.id,
      selling_price: p.selling_price,
      wholesale_price: p.wholesale_price,
      cost_price: p.cost_price,
      tax_rate: p.tax_rate,
      effective_from: ctx.clock.now(),
      changed_by: ctx.actor?.userId ?? null,
    })
    .execute();
}

/** An adjustment row (never edited or deleted) for a change of stock already applied. */
export async function insertStockAdjustment(db: Kysely<Database>, a: Omit<StockAdjustmentRow, 'id'>): Promise<void> {
  await db
    .insertInto('stock_adjustments')
    .values({
      id: newId(),
      org_id: a.org_id,
      store_id: a.store_id,
      product_id: a.product_id,
      qty_change: a.qty_change,
      qty_after: a.qty_after,
      reason: a.reason,
      note: a.note,
      adjusted_by: a.adjusted_by,
      created_at: a.created_at,
    })
    .execute();
}

/** The last `limit` adjustments of a product in the store, newest first. */
export function productAdjustments(db: Kysely<Database>, at: { orgId: string; storeId: string }, productId: string, limit: number) {
  return db
    .selectFrom('stock_adjustments')
    .selectAll()
    .where('org_id', '=', at.orgId)
    .where('product_id', '=', productId)
    .where('store_id', '=', at.storeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

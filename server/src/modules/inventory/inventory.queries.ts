import { fromBasisPoints, fromCents } from '@duka/shared';
import type { Category, Product } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso } from '../../lib/clock.js';
import type { CategoryRow, ProductRow } from '../../db/tables/inventory.table.js';

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

export function toProduct(row: ProductWithStock): Product {
  const stock = Number(row.stock);
  const isService = row.is_service === 1;
  return {
    id: row.id,
    name: row.name,
    category_id: row.category_id,
    sku: row.sku,
    barcode: row.barcode,
    cost_price: fromCents(row.cost_price),
    selling_price: fromCents(row.selling_price),
    wholesale_price: row.wholesale_price == null ? null : fromCents(row.wholesale_price),
    wholesale_min_qty: row.wholesale_min_qty,
    stock,
    reorder_point: row.reorder_point,
    image: row.image,
    tax_rate: fromBasisPoints(row.tax_rate),
    tax_code: row.tax_code,
    description: row.description,
    is_service: isService,
    is_active: row.is_active === 1,
    is_low_stock: !isService && stock <= row.reorder_point,
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

/** Products with `stock` = their level in `storeId` (0 where no row yet) and the organisation's default expiry alert window. */
function withStock(db: Kysely<Database>, storeId: string | null) {
  return db
    .selectFrom('products as p')
    .innerJoin('organisations as o', 'o.id', 'p.org_id')
    .leftJoin('product_stock as ps', (join) => join.onRef('ps.product_id', '=', 'p.id').on('ps.store_id', '=', storeId ?? ''))
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

/**
 * One product with its stock in `storeId`, by primary key alone. With `org_id = ?` beside the id,
 * SQLite's planner on statistics taken while each organisation had one product walked the whole
 * catalogue through the (org_id, name) index for every lookup (test/platform/planner-stats.test.ts).
 */
export const productQuery = (db: Kysely<Database>, storeId: string | null, id: string) => withStock(db, storeId).where('p.id', '=', id);

/** A product of `orgId` only: another organisation's id is not found. */
export async function findProduct(
  db: Kysely<Database>,
  orgId: string,
  storeId: string | null,
  id: string,
): Promise<ProductWithStock | undefined> {
  const row = await productQuery(db, storeId, id).executeTakeFirst();
  return row?.org_id === orgId ? row : undefined;
}

/** The organisation's products among `ids`, by id; another organisation's ids are simply absent. */
export async function orgProductsById(db: Kysely<Database>, orgId: string, ids: string[]): Promise<Map<string, ProductRow>> {
  if (ids.length === 0) return new Map();
  // By primary key alone, the organisation checked on the rows: with `org_id = ?` beside the ids,
  // SQLite's planner, on statistics older than the catalogue, walked the organisation's products
  // through its (org_id, name) index (18 ms for a push's 300 products of 50,000, against 2).
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.filter((r) => r.org_id === orgId).map((r) => [r.id, r]));
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

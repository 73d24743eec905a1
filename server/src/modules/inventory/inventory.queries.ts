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

export type ProductWithStock = ProductRow & { stock: number };

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
    description: row.description,
    is_service: isService,
    is_active: row.is_active === 1,
    is_low_stock: !isService && stock <= row.reorder_point,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Products of `orgId` with `stock` = their level in `storeId` (0 where no row yet). */
export function productsWithStock(db: Kysely<Database>, orgId: string, storeId: string | null) {
  return db
    .selectFrom('products as p')
    .leftJoin('product_stock as ps', (join) => join.onRef('ps.product_id', '=', 'p.id').on('ps.store_id', '=', storeId ?? ''))
    .selectAll('p')
    .select((eb) => eb.fn.coalesce('ps.qty', eb.lit(0)).as('stock'))
    .where('p.org_id', '=', orgId);
}

export function findProduct(db: Kysely<Database>, orgId: string, storeId: string | null, id: string): Promise<ProductWithStock | undefined> {
  return productsWithStock(db, orgId, storeId).where('p.id', '=', id).executeTakeFirst();
}

/** The organisation's products among `ids`, by id; another organisation's ids are simply absent. */
export async function orgProductsById(db: Kysely<Database>, orgId: string, ids: string[]): Promise<Map<string, ProductRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('products').selectAll().where('org_id', '=', orgId).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export function findCategory(db: Kysely<Database>, orgId: string, id: string) {
  return db.selectFrom('categories').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

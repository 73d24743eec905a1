/** A product's packs (issue 51, migration 0040): read with their products, replaced as a list, found by barcode. */
import { fromCents, fromCount, type ProductPack, type Unit } from '@duka/shared';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ProductPackRow, ProductPackTable } from '../../db/tables/inventory.table.js';

export function toPack(row: ProductPackRow, unit: Unit): ProductPack {
  return {
    id: row.id,
    name: row.name,
    units: fromCount(row.units, unit),
    barcode: row.barcode,
    selling_price: row.selling_price == null ? null : fromCents(Number(row.selling_price)),
  };
}

/** The packs of the organisation's products among `productIds`, per product, smallest first. */
export async function packsOf(db: Kysely<Database>, orgId: string, productIds: string[]): Promise<Map<string, ProductPackRow[]>> {
  const out = new Map<string, ProductPackRow[]>();
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom('product_packs')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('product_id', 'in', [...new Set(productIds)])
    .orderBy('units')
    .orderBy('name')
    .execute();
  for (const r of rows) out.set(r.product_id, [...(out.get(r.product_id) ?? []), r]);
  return out;
}

/** The organisation's packs among `ids` (a sale's lines), by id; another organisation's are absent. */
export async function orgPacksById(db: Kysely<Database>, orgId: string, ids: string[]): Promise<Map<string, ProductPackRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('product_packs')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The pack of the organisation with this barcode, if any. */
export function packByBarcode(db: Kysely<Database>, orgId: string, barcode: string) {
  return db.selectFrom('product_packs').selectAll().where('org_id', '=', orgId).where('barcode', '=', barcode).executeTakeFirst();
}

/** Who already holds one of `codes` besides `productId` and its packs: a product, or a product's pack. */
export async function barcodeHolders(db: Kysely<Database>, orgId: string, productId: string, codes: string[]) {
  if (codes.length === 0) return [];
  const [products, packs] = await Promise.all([
    db
      .selectFrom('products')
      .select(['barcode', 'name'])
      .where('org_id', '=', orgId)
      .where('barcode', 'in', codes)
      .where('id', '!=', productId)
      .execute(),
    db
      .selectFrom('product_packs as k')
      .innerJoin('products as p', (j) => j.onRef('p.org_id', '=', 'k.org_id').onRef('p.id', '=', 'k.product_id'))
      .select(['k.barcode', 'p.name as product_name', 'k.name as pack_name'])
      .where('k.org_id', '=', orgId)
      .where('k.barcode', 'in', codes)
      .where('k.product_id', '!=', productId)
      .execute(),
  ]);
  return [
    ...products.map((p) => ({ barcode: p.barcode!, holder: p.name })),
    ...packs.map((k) => ({ barcode: k.barcode!, holder: `${k.product_name} (${k.pack_name})` })),
  ];
}

/** The product's packs become `rows` (those kept keep their ids). */
export async function replacePacks(
  db: Kysely<Database>,
  at: { orgId: string; productId: string },
  rows: Insertable<ProductPackTable>[],
): Promise<void> {
  await db.deleteFrom('product_packs').where('org_id', '=', at.orgId).where('product_id', '=', at.productId).execute();
  if (rows.length) await db.insertInto('product_packs').values(rows).execute();
}

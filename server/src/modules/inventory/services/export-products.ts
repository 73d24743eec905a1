/**
 * GET /inventory/products/export (issue 54): the catalogue as the CSV the import reads (same
 * columns, same order), so an export imports back unchanged. The active products (services have
 * no column to say so and are left out), with the active store's stock, by name.
 */
import { CATALOGUE_COLUMNS, fromCents, fromCount } from '@duka/shared';
import { stringify } from 'csv-stringify/sync';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { defuseFormula } from '../../../lib/csv.js';
import { productsWithStock } from '../inventory.queries.js';

export async function exportProducts(ctx: AuthedContext): Promise<string> {
  const { orgId, storeId } = requireStore(ctx);
  const [rows, categories] = await Promise.all([
    productsWithStock(ctx.db, orgId, storeId)
      .where('p.is_active', '=', 1)
      .where('p.is_service', '=', 0)
      .orderBy('p.name')
      .orderBy('p.id')
      .execute(),
    ctx.db.selectFrom('categories').select(['id', 'name']).where('org_id', '=', orgId).execute(),
  ]);
  const categoryName = new Map(categories.map((c) => [c.id, c.name]));
  const text = (v: string | null | undefined) => (v == null ? '' : defuseFormula(v));
  const records = rows.map((p) => [
    text(p.name),
    text(p.sku),
    text(p.barcode),
    text(p.category_id ? categoryName.get(p.category_id) : null),
    String(fromCents(Number(p.selling_price))),
    String(fromCents(Number(p.cost_price))),
    String(fromCount(Number(p.stock), p.unit)),
    String(fromCount(Number(p.reorder_point), p.unit)),
    p.unit,
  ]);
  return stringify(records, { header: true, columns: [...CATALOGUE_COLUMNS], record_delimiter: 'windows' });
}

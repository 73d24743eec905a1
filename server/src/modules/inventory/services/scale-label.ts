/**
 * Issue 51: a shop-scale label scanned at the till (shared/src/inventory/scale-barcode.ts). The
 * label names the product by its `scale_code` and prints its weight or price; what it sells is
 * shared's `scaleLine`, so the server, the SDK and the browser till read a label alike.
 */
import { decodeScaleBarcode, fromCents, looksLikeScaleLabel, type ScaleLabelSale, scaleLine } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { findOrganisation, scaleBarcodesOf } from '../../tenancy/tenancy.exports.js';
import { type ProductWithStock, productsWithStock } from '../inventory.queries.js';

/** The product a scale label names and what it sells of it; null when `code` is not one of the organisation's labels. */
export async function productByScaleLabel(
  ctx: AuthedContext,
  scope: { orgId: string; storeId: string },
  code: string,
): Promise<{ row: ProductWithStock; scale_label: ScaleLabelSale } | null> {
  const org = await findOrganisation(ctx.db, scope.orgId);
  const config = org ? scaleBarcodesOf(org) : null;
  if (!looksLikeScaleLabel(code, config)) return null;
  const label = decodeScaleBarcode(code, config);
  if (!label) throw new ValidationError('code', 'is not a readable scale label (its check digit is wrong): scan it again');
  const row = await productsWithStock(ctx.db, scope.orgId, scope.storeId).where('p.scale_code', '=', label.item_code).executeTakeFirst();
  if (!row) throw new NotFoundError('product');
  const sold = scaleLine(label, { unit: row.unit, unitPrice: Number(row.selling_price) });
  if ('fault' in sold) throw new ValidationError('code', sold.fault);
  const scale_label: ScaleLabelSale = {
    barcode: code.trim(),
    qty: sold.qty,
    amount: sold.amount === undefined ? null : fromCents(sold.amount),
  };
  return { row, scale_label };
}

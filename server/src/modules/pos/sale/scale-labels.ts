/**
 * Issue 51: sale lines sent as a shop-scale label (`scale_barcode`). The set reads the
 * organisation's label layouts and the products the labels name, once for all its sales, and only
 * when a line is a label (a sale without one runs the statements it always ran); `resolveLines`
 * reads each label into its product and quantity with shared's rule, as the till does offline.
 */
import { decodeScaleBarcode, looksLikeScaleLabel, type SaleLineInput, type ScaleBarcodeConfig, scaleLine } from '@duka/shared';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { ValidationError } from '../../../lib/errors.js';
import { scaleBarcodesOf } from '../../tenancy/tenancy.exports.js';

export interface ScaleLabels {
  config: ScaleBarcodeConfig | null;
  /** The products the set's labels name, by their `scale_code`. */
  byCode: Map<string, ProductRow>;
}

const NO_LABELS: ScaleLabels = { config: null, byCode: new Map() };

export async function readScaleLabels(
  tx: ServiceContext,
  orgId: string,
  requests: ReadonlyArray<{ input: { lines: SaleLineInput[] } }>,
): Promise<ScaleLabels> {
  const labels = requests.flatMap((r) => r.input.lines.flatMap((l) => (l.scale_barcode ? [l.scale_barcode] : [])));
  if (labels.length === 0) return NO_LABELS;
  const org = await tx.db.selectFrom('organisations').select('scale_barcodes').where('id', '=', orgId).executeTakeFirst();
  const config = org ? scaleBarcodesOf(org) : null;
  const codes = [...new Set(labels.flatMap((code) => decodeScaleBarcode(code, config)?.item_code ?? []))];
  const rows = codes.length
    ? await tx.db.selectFrom('products').selectAll().where('org_id', '=', orgId).where('scale_code', 'in', codes).execute()
    : [];
  return { config, byCode: new Map(rows.map((p) => [p.scale_code!, p])) };
}

/** A line as sold: its product and quantity, and for a price label the amount it is charged (cents). */
export interface LabelledLine {
  product_id: string;
  qty: number;
  pack_id?: string;
  label?: { qty: number; amount: number };
}

/** A sale line as its product and quantity: a label read (and checked against what the line also says), else as sent. */
export function readLine(line: SaleLineInput, index: number, labels: ScaleLabels): LabelledLine {
  if (!line.scale_barcode) return { product_id: line.product_id!, qty: line.qty!, ...(line.pack_id && { pack_id: line.pack_id }) };
  const field = `lines.${index}.scale_barcode`;
  const label = decodeScaleBarcode(line.scale_barcode, labels.config);
  if (!label) {
    const why = looksLikeScaleLabel(line.scale_barcode, labels.config)
      ? 'is not a readable scale label (its check digit is wrong)'
      : "is not one of the organisation's scale labels (scale_barcodes)";
    throw new ValidationError(field, why);
  }
  const product = labels.byCode.get(label.item_code);
  if (!product) throw new ValidationError(field, `names scale code ${label.item_code}, which no product has`);
  const sold = scaleLine(label, { unit: product.unit, unitPrice: Number(product.selling_price) });
  if ('fault' in sold) throw new ValidationError(field, sold.fault);
  if (line.product_id !== undefined && line.product_id !== product.id)
    throw new ValidationError(`lines.${index}.product_id`, `is not the product of the scale label (${product.name})`);
  if (line.qty !== undefined && line.qty !== sold.qty)
    throw new ValidationError(`lines.${index}.qty`, `is not the scale label's quantity (${sold.qty} ${product.unit})`);
  return { product_id: product.id, qty: sold.qty, ...(sold.amount !== undefined ? { label: { qty: sold.qty, amount: sold.amount } } : {}) };
}

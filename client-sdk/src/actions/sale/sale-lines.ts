/**
 * The till's sale lines in counts (issue 51), as the server's `resolveLines` reads them: a line
 * scanned from a shop-scale label is read into its product and quantity (and, for a price label,
 * the amount it is charged) and checked against what the line also says; each line is counted in
 * its product's unit (a piece product's 0.5 refused as the server refuses it); lines by the pack
 * count packs × the pack's units; the labels' part of a product is added up.
 */
import { type Product, quantityFault, toCents, toCount } from '@duka/shared';
import { TillError } from '../../errors.js';
import type { LocalExec } from '../../local/db.js';
import * as reads from '../../reads.js';
import type { SaleLine as InputLine } from '../../types.js';
import type { LabelLine, SaleLine } from './draft.js';

/** A line as sold: a label read, else as given. `qty` in the unit until `countLine`, in counts after. */
export interface ReadLine {
  product_id: string;
  qty: number;
  pack_id?: string;
  barcode?: string;
  label?: { qty: number; amount: number };
}

const refuse = (field: string, why: string) => new TillError('VALIDATION_ERROR', `${field} ${why}`, field);

export async function readLine(db: LocalExec, line: InputLine, index: number): Promise<ReadLine> {
  const given = { product_id: line.product_id, qty: line.qty, ...(line.pack_id && { pack_id: line.pack_id }) };
  if (!line.scale_barcode) return given;
  const field = `lines.${index}.scale_barcode`;
  const found = await reads.productByCode(db, line.scale_barcode).catch((e: unknown) => {
    throw e instanceof TillError ? refuse(field, e.message.replace(/^code /, '')) : e;
  });
  const sold = found?.scale_label;
  if (!found || !sold) throw refuse(field, "is not one of the organisation's scale labels (scale_barcodes)");
  if (line.product_id !== found.id) throw refuse(`lines.${index}.product_id`, `is not the product of the scale label (${found.name})`);
  if (line.qty !== sold.qty) throw refuse(`lines.${index}.qty`, `is not the scale label's quantity (${sold.qty} ${found.unit})`);
  const label = sold.amount === null ? {} : { label: { qty: sold.qty, amount: toCents(sold.amount) } };
  return { product_id: found.id, qty: sold.qty, barcode: line.scale_barcode, ...label };
}

/** A line's qty (and its label's) in counts of its product's unit; a pack line's in whole packs. A product the till lacks is left for `checkRules`. */
export function countLine(products: Map<string, Product>, line: ReadLine, index: number): ReadLine {
  const p = products.get(line.product_id);
  if (!p) return line;
  const unit = line.pack_id ? 'piece' : (p.unit ?? 'piece');
  const fault = quantityFault(line.qty, unit);
  if (fault) throw refuse(`lines.${index}.qty`, line.pack_id ? 'packs are sold whole' : fault);
  const label = line.label && { label: { qty: toCount(line.label.qty, unit), amount: line.label.amount } };
  return { ...line, qty: toCount(line.qty, unit), ...label };
}

/** A merged line as the stages see it: by the pack, its counts are packs × the pack's units. */
export function packLine(
  products: Map<string, Product>,
  l: { index: number; product_id: string; qty: number; pack_id?: string },
): SaleLine {
  const p = products.get(l.product_id);
  if (!l.pack_id || !p) return { index: l.index, product_id: l.product_id, qty: l.qty };
  const pack = (p.packs ?? []).find((k) => k.id === l.pack_id);
  const field = `lines.${l.index}.pack_id`;
  if (!pack) throw new TillError('NOT_FOUND', `${field} is not a pack of this product`, field);
  return { index: l.index, product_id: l.product_id, qty: l.qty * toCount(pack.units, p.unit ?? 'piece'), pack: { pack, packs: l.qty } };
}

/** The price labels of one product in the sale, added up (they are charged their printed prices). */
export function labelOf(read: ReadLine[], line: { product_id: string; pack_id?: string }): Pick<SaleLine, 'label'> {
  if (line.pack_id) return {};
  const labels = read.flatMap((l) => (l.product_id === line.product_id && !l.pack_id && l.label ? [l.label] : []));
  if (labels.length === 0) return {};
  return { label: { qty: labels.reduce((s, l) => s + l.qty, 0), amount: labels.reduce((s, l) => s + l.amount, 0) } };
}

/** The lines read from labels, as scanned, in counts. */
export const labelLines = (read: ReadLine[]): LabelLine[] =>
  read.flatMap((l, index) => (l.barcode ? [{ index, product_id: l.product_id, qty: l.qty, barcode: l.barcode }] : []));

/** What of protocol 2 the sale uses (issue 51), in words for the refusal; null: nothing. */
export function protocol2Feature(lines: InputLine[], payments?: readonly unknown[]): string | null {
  if (payments !== undefined) return 'a sale paid several ways (split payments)';
  if (lines.some((l) => l.pack_id !== undefined)) return 'selling by the pack';
  if (lines.some((l) => l.scale_barcode !== undefined)) return 'selling from a scale label';
  if (lines.some((l) => !Number.isInteger(l.qty))) return 'selling a decimal quantity (by weight or volume)';
  return null;
}

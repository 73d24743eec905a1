/**
 * A sale's line as a receipt shows it: the server reading a stored sale and the till writing one
 * offline build the same line, so a receipt reads the same whichever printed it.
 */
import { fromCount, type Unit } from '../inventory/units.js';
import { fromCents } from '../money.js';
import type { LineBatch } from '../pharmacy/batch.schemas.js';
import type { PricedLine } from '../pricing.js';
import type { Transaction } from './pos.schemas.js';

/**
 * A stored or freshly priced line: money in integer cents, `qty` in counts of `unit` (a stored line
 * takes its product's unit, which cannot change once sold; absent: `piece`).
 */
export type CentsLine = Pick<PricedLine, 'product_id' | 'product_name' | 'qty' | 'unit_price' | 'line_total' | 'discount' | 'tax'> & {
  unit?: Unit;
};

export type ReceiptLine = Transaction['lines'][number];

/** A line sold by the pack: which, as sold, and how many (`qty` is the line's units, so a pack holds qty / packs). */
export type SoldPack = { id: string; name: string; qty: number };

/**
 * The line in its unit: 500 counts of a kg product read `qty: 0.5, unit: 'kg'`. A line that names
 * no unit (a till's receipt priced as before units) is a piece line and is written as it always was.
 * `pack`: the server says null of a loose line; a till that sells no packs yet leaves it out (its receipts as they were).
 */
export function toReceiptLine(line: CentsLine, batches: LineBatch[], pack?: SoldPack | null): ReceiptLine {
  const unit = line.unit ?? 'piece';
  return {
    product_id: line.product_id,
    product_name: line.product_name,
    qty: fromCount(line.qty, unit),
    ...(line.unit === undefined ? {} : { unit }),
    unit_price: fromCents(line.unit_price),
    line_total: fromCents(line.line_total),
    discount: fromCents(line.discount),
    tax: fromCents(line.tax),
    batches,
    ...(pack !== undefined && { pack: pack && { ...pack, units: fromCount(line.qty / pack.qty, unit) } }),
  };
}

/** A quantity as a receipt prints it: `3` (pieces; a line naming no unit), `0.5 kg`. */
export const quantityText = (qty: number, unit: Unit | undefined): string =>
  unit === undefined || unit === 'piece' ? String(qty) : `${qty} ${unit}`;

/** What a unit price is per, printed after it: nothing for a piece, `/kg` for a measured product. */
export const perUnitText = (unit: Unit | undefined): string => (unit === undefined || unit === 'piece' ? '' : `/${unit}`);

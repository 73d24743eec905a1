/**
 * A sale's line as a receipt shows it: the server reading a stored sale and the till writing one
 * offline build the same line, so a receipt reads the same whichever printed it.
 */
import { fromCents } from '../money.js';
import type { LineBatch } from '../pharmacy/batch.schemas.js';
import type { PricedLine } from '../pricing.js';
import type { Transaction } from './pos.schemas.js';

/** A stored or freshly priced line: money in integer cents. */
export type CentsLine = Pick<PricedLine, 'product_id' | 'product_name' | 'qty' | 'unit_price' | 'line_total' | 'discount' | 'tax'>;

export type ReceiptLine = Transaction['lines'][number];

/** A line sold by the pack: which, as sold, and how many (`qty` is the line's units, so a pack holds qty / packs). */
export type SoldPack = { id: string; name: string; qty: number };

/** `pack`: the server says null of a loose line; a till that sells no packs yet leaves it out (its receipts as they were). */
export function toReceiptLine(line: CentsLine, batches: LineBatch[], pack?: SoldPack | null): ReceiptLine {
  return {
    product_id: line.product_id,
    product_name: line.product_name,
    qty: line.qty,
    unit_price: fromCents(line.unit_price),
    line_total: fromCents(line.line_total),
    discount: fromCents(line.discount),
    tax: fromCents(line.tax),
    batches,
    ...(pack !== undefined && { pack: pack && { ...pack, units: line.qty / pack.qty } }),
  };
}

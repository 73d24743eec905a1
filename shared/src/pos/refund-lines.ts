/**
 * Which sold lines a refund of part of a sale takes back, and from which lots (issue 51): judged
 * alike by the server's refund and the till's offline one, so both refuse the same input with the
 * same words (docs/pos.md "Refunding part of a sale").
 */
import { fromCount, quantityFault, toCount, type Unit } from '../inventory/units.js';
import type { RefundLineInput } from './pos.schemas.js';

/** A sold line as a refund names it (counts in `qty`). */
export interface SoldLine {
  product_id: string;
  pack_id?: string | null;
  unit: Unit;
  name: string;
  qty: number;
}

export interface RefundFault {
  code: 'VALIDATION_ERROR' | 'INVALID_STATE';
  field: string;
  /** Without the field's name: the server's error and the till's put it in front. */
  message: string;
}

/** `1 kg`, `3` (a piece product's count says its pieces). */
export const refundQtyText = (count: number, unit: Unit) => `${fromCount(count, unit)}${unit === 'piece' ? '' : ` ${unit}`}`;

/**
 * The lines and counts asked for, or everything still left when nothing is asked (`left` gives
 * the counts not yet refunded of a line). A line the sale lacks or a bad quantity is a
 * VALIDATION_ERROR, more than is left an INVALID_STATE naming `lines.N.qty`.
 */
export function refundLinesWanted<L extends SoldLine>(
  lines: readonly L[],
  left: (line: L) => number,
  asked?: readonly RefundLineInput[],
): { wanted: Array<{ line: L; count: number }> } | { fault: RefundFault } {
  if (!asked) return { wanted: lines.map((line) => ({ line, count: left(line) })).filter((x) => x.count > 0) };
  const wanted: Array<{ line: L; count: number }> = [];
  for (const [i, a] of asked.entries()) {
    const line = lines.find((l) => l.product_id === a.product_id && (l.pack_id ?? undefined) === a.pack_id);
    if (!line) {
      const message = `this sale has no line of this product ${a.pack_id ? 'in this pack' : 'sold loose'}`;
      return { fault: { code: 'VALIDATION_ERROR', field: `lines.${i}.product_id`, message } };
    }
    const fault = quantityFault(a.qty, line.unit);
    if (fault) return { fault: { code: 'VALIDATION_ERROR', field: `lines.${i}.qty`, message: fault } };
    const count = toCount(a.qty, line.unit);
    if (count > left(line)) {
      const message = `only ${refundQtyText(left(line), line.unit)} of ${line.name} is left to refund (${refundQtyText(line.qty, line.unit)} sold)`;
      return { fault: { code: 'INVALID_STATE', field: `lines.${i}.qty`, message } };
    }
    wanted.push({ line, count });
  }
  return { wanted };
}

/**
 * A part refunded, per product: `count` units back after the `from` earlier refunds took. Refunds
 * take the sale's units in the order the lots were taken (FEFO), so earlier ones took the first
 * `from` and each unit goes back to the lot it came from: 3 of 5 tablets sold as 2 of lot A + 3 of
 * lot B go back 2 to A and 1 to B. `taken` is how many of the sale's units a lot gave. A product
 * with no lots is not listed (the caller puts it back as a product without lots).
 */
export function refundLots<Lot extends { product_id: string }>(
  lots: readonly Lot[],
  taken: (lot: Lot) => number,
  part: ReadonlyMap<string, { from: number; count: number }>,
): Array<readonly [Lot, number]> {
  const out: Array<readonly [Lot, number]> = [];
  const seen = new Map<string, number>();
  for (const lot of lots) {
    const want = part.get(lot.product_id);
    if (!want) continue;
    const start = seen.get(lot.product_id) ?? 0;
    const gave = taken(lot);
    seen.set(lot.product_id, start + gave);
    const lo = Math.max(start, want.from);
    const hi = Math.min(start + gave, want.from + want.count);
    if (hi > lo) out.push([lot, hi - lo] as const);
  }
  return out;
}

/**
 * A product's quantity at the API's edge (issue 51): what a client sends is in the product's unit
 * (whole pieces, or up to 3 decimals of a measure) and becomes integer counts before anything is
 * stored or compared; counts become the unit again only when answered (shared `fromCount`).
 */
import { fromCount, quantityFault, toCount, type Unit } from '@duka/shared';
import { ValidationError } from '../../lib/errors.js';
import { MAX_STOCK } from './stock-levels.js';

/**
 * `qty` of a product of `unit` as its counts; 400 naming `field` when the unit cannot take it or it
 * is beyond any store's stock. The one check of every quantity input: stock moves, deliveries,
 * lots, and a product's own `stock`, `reorder_point` and `wholesale_min_qty`.
 */
export function countOf(qty: number, unit: Unit, field: string): number {
  const fault = quantityFault(qty, unit);
  if (fault) throw new ValidationError(field, fault);
  const count = toCount(qty, unit);
  // A measured unit's most is its counts' (thousandths) most: 1,000,000 kg still fits PostgreSQL's int4.
  if (Math.abs(count) > MAX_STOCK)
    throw new ValidationError(
      field,
      `must be at most ${fromCount(MAX_STOCK, unit).toLocaleString('en')}${unit === 'piece' ? '' : ` ${unit}`}`,
    );
  return count;
}

/** Counts as said in a sentence: `12 units` of a piece product, `11.75 kg` of a measured one. */
export const quantitySaid = (count: number, unit: Unit): string =>
  unit === 'piece' ? `${count} units` : `${fromCount(count, unit)} ${unit}`;

/** Counts as people read them in a message: `12` (pieces) or `11.75 kg`. */
export const countText = (count: number, unit: Unit): string => (unit === 'piece' ? String(count) : `${fromCount(count, unit)} ${unit}`);

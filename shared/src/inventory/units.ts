/**
 * Issue 51: the units a product is sold in, and how a quantity in one is kept exactly.
 *
 * A product has a `unit`: `piece` (the default) or a measure (`kg`, `g`, `l`, `ml`, `m`). Every
 * quantity of a product (its stock, its stock moves, its sale, delivery, lot and transfer lines,
 * its reorder point) is stored as an integer **count**: one count is one piece, or one thousandth
 * of a measured unit (a gram of a kg product, a millilitre of a litre one). A piece product's
 * counts are its pieces, so every row written before units existed means what it meant.
 * The API speaks quantities in the product's unit (`0.5` kg, `3` pieces): a piece product's stay
 * whole, a measured one's take up to 3 decimals. Never binary floating point in storage.
 *
 * A measured line's amount is price × quantity rounded half up to the whole shilling, once per
 * line (`lineAmount`); a piece line's is exact. The server, the SDK and the browser till all price
 * through this one function.
 */
import { z } from 'zod';
import { UNITS, unitScale } from './unit-scale.js';

export const Unit = z.enum(UNITS).meta({
  description:
    'What one of the product is: piece (whole numbers only), or a measure (kg, g, l, ml, m) sold in quantities of up to 3 decimals',
});
export type Unit = z.infer<typeof Unit>;

export const isMeasured = (unit: Unit): boolean => unit !== 'piece';

/** Why `qty` is not a quantity of `unit`, in words a cashier or an integrator can act on; null when it is. */
export function quantityFault(qty: number, unit: Unit): string | null {
  if (!Number.isFinite(qty)) return 'must be a number';
  const scaled = qty * unitScale(unit);
  if (Math.abs(scaled - Math.round(scaled)) > 1e-6) {
    return unit === 'piece' ? 'a product sold by the piece takes whole numbers' : `takes at most 3 decimals (${unit})`;
  }
  return null;
}

/** A quantity in the product's unit as its stored integer count. Throws RangeError when it is not one. */
export function toCount(qty: number, unit: Unit): number {
  const fault = quantityFault(qty, unit);
  if (fault) throw new RangeError(`quantity ${qty} ${fault}`);
  return Math.round(qty * unitScale(unit));
}

/** A stored count in the product's unit, as the API answers it (1375 g of a kg product → 1.375). */
export const fromCount = (count: number, unit: Unit): number => (unit === 'piece' ? count : count / 1000);

/**
 * A line's amount in cents: `unitPrice` cents per unit × `count` counts. A piece line is exact; a
 * measured one is rounded half up to the whole shilling (100 cents), once, on the line: 1,550/kg ×
 * 0.333 kg = 516.15 → 516; × 0.335 kg = 519.25 → 519; 3,250/kg × 0.5 kg = 1,625.
 */
export function lineAmount(unitPrice: number, count: number, unit: Unit): number {
  if (unit === 'piece') return unitPrice * count;
  const num = BigInt(unitPrice) * BigInt(count);
  const den = 1000n * 100n;
  return Number((2n * num + den) / (2n * den)) * 100;
}

/** A quantity as an API input: positive, at most 3 decimals (whether the product takes them is `quantityFault`'s call). */
export const QuantityInput = z
  .number()
  .positive()
  .max(1_000_000)
  .refine((v) => quantityFault(v, 'kg') === null, 'at most 3 decimals')
  .meta({
    multipleOf: 0.001,
    description: "In the product's unit: whole for a piece product, up to 3 decimals for a measured one (kg, g, l, ml, m)",
  });

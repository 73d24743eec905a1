/**
 * Issue 51: packs. A product can be bought and sold in packs (a carton of 24 sodas; a pharmacy's
 * box of 100 tablets and strip of 10 are both packs of the tablet). Stock stays in the product's
 * base unit: a pack only says how many counts (shared/src/inventory/units.ts) it holds, so a
 * carton sold takes 24 pieces and a carton delivered adds 24.
 *
 * A pack line's price is the pack's own `selling_price` × packs, or, when it has none, the pack's
 * units × the unit price (`packPrice`). The server, the SDK and the browser till price a pack
 * through this one function (`priceSale` calls it). The shapes: packs.schemas.ts.
 */
import { fromCount, isMeasured, lineAmount, toCount, type Unit } from './units.js';

/** A pack as pricing reads it: `units` in counts, `selling_price` in cents. */
export interface PricedPack {
  id: string;
  units: number;
  selling_price: number | null;
}

/**
 * One pack's price in cents: its own, else its units × `unitPrice` (cents per unit of `unit`), as
 * a line of that many units would be (`lineAmount`: exact by the piece, to the shilling measured).
 */
export const packPrice = (pack: PricedPack, unitPrice: number, unit: Unit): number =>
  pack.selling_price ?? lineAmount(unitPrice, pack.units, unit);

/** One part of a level shown in packs: `qty` packs called `name`, or the loose rest (`name` null, in the product's unit). */
export interface PackPart {
  name: string | null;
  qty: number;
}

/**
 * A level of `count` counts shown in packs, largest first, then the loose rest: 77 pieces with a
 * carton of 24 → 3 Carton + 5; 124 tablets with a box of 100 and a strip of 10 → 1 Box + 2 Strip + 4.
 * A level below one of the smallest pack, or below zero, is its loose part alone.
 */
export function packBreakdown(count: number, packs: ReadonlyArray<{ name: string; units: number }>, unit: Unit = 'piece'): PackPart[] {
  const parts: PackPart[] = [];
  let rest = count;
  if (rest > 0)
    for (const p of [...packs].filter((x) => x.units > 0).sort((a, b) => b.units - a.units)) {
      // Integer division of counts, exact (no rounding of a quotient).
      const qty = (rest - (rest % p.units)) / p.units;
      if (qty > 0) parts.push({ name: p.name, qty });
      rest -= qty * p.units;
    }
  if (rest !== 0 || parts.length === 0) parts.push({ name: null, qty: fromCount(rest, unit) });
  return parts;
}

/** `packBreakdown`'s parts as text: "3 × Carton + 5"; a measured rest says its unit ("2 × Sack 25 kg + 10.5 kg"). */
export const packBreakdownText = (parts: PackPart[], unit: Unit = 'piece'): string =>
  parts.map((p) => (p.name !== null ? `${p.qty} × ${p.name}` : isMeasured(unit) ? `${p.qty} ${unit}` : String(p.qty))).join(' + ');

/**
 * A product's stock as a shopkeeper counts it on the shelf (docs/inventory.md, Packs): every pack
 * that fits, largest first, by the name the shop gave it, then the loose rest ("3 × Crate of 24 +
 * 5"; under one pack, nothing, or below zero: the level alone, "20"); null when it has no packs.
 * Takes a product as the API answers it (`stock` and each pack's `units` in its unit), so the
 * server, the SDK's replica and the browser till all say it the same way.
 */
export function stockInPacks(p: {
  stock: number;
  unit: Unit;
  is_service?: boolean;
  packs?: ReadonlyArray<{ name: string; units: number }>;
}): string | null {
  if (p.is_service || !p.packs?.length) return null;
  const packs = p.packs.map((k) => ({ name: k.name, units: toCount(k.units, p.unit) }));
  return packBreakdownText(packBreakdown(toCount(p.stock, p.unit), packs, p.unit), p.unit);
}

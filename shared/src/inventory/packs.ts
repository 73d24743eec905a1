/**
 * Issue 51: packs. A product can be bought and sold in packs (a carton of 24 sodas; a pharmacy's
 * box of 100 tablets and strip of 10 are both packs of the tablet). Stock stays in the product's
 * base unit: a pack only says how many counts (shared/src/inventory/units.ts) it holds, so a
 * carton sold takes 24 pieces and a carton delivered adds 24.
 *
 * A pack line's price is the pack's own `selling_price` × packs, or, when it has none, the pack's
 * units × the unit price (`packPrice`). The server, the SDK and the browser till price a pack
 * through this one function (`priceSale` calls it).
 */
import { z } from 'zod';
import { Money, MoneyInput } from '../common.js';
import { fromCount, lineAmount, QuantityInput, type Unit } from './units.js';

/** Packs a product may have: a few sizes, not a catalogue of their own. */
export const MAX_PACKS = 20;

export const ProductPack = z
  .object({
    id: z.uuid(),
    name: z.string().meta({ example: 'Carton' }),
    units: z.number().meta({ description: "How much of the product one pack holds, in the product's unit (24 pieces; 25 kg)" }),
    barcode: z.string().nullable().meta({ description: "The pack's own barcode: scanning it sells the pack" }),
    selling_price: Money.nullable().meta({ description: 'The price of one pack; null: units × the unit price' }),
  })
  .meta({ id: 'ProductPack' });
export type ProductPack = z.infer<typeof ProductPack>;

export const PackInput = z
  .object({
    id: z.uuid().optional().meta({ description: 'One of the product’s packs, to keep it (and its id) on update; absent: a new pack' }),
    name: z.string().trim().min(1).max(50),
    units: QuantityInput.meta({
      description: "How much of the product one pack holds, in the product's unit: more than 1 (whole for a piece product)",
    }),
    barcode: z.string().trim().min(1).max(64).nullable().optional(),
    selling_price: MoneyInput.nullable().optional(),
  })
  .meta({ id: 'PackInput' });
export type PackInput = z.infer<typeof PackInput>;

/** A product's packs as sent: names and barcodes are each the product's once. */
export const PackListInput = z
  .array(PackInput)
  .max(MAX_PACKS)
  .superRefine((packs, ctx) => {
    const names = new Set<string>();
    const codes = new Set<string>();
    packs.forEach((p, i) => {
      const name = p.name.toLowerCase();
      if (names.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `two packs are called ${p.name}` });
      names.add(name);
      if (p.barcode && codes.has(p.barcode))
        ctx.addIssue({ code: 'custom', path: [i, 'barcode'], message: `two packs have barcode ${p.barcode}` });
      if (p.barcode) codes.add(p.barcode);
    });
  })
  .meta({ description: "The product's packs: on update the list replaces them all (send [] to remove every pack)" });

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
      const qty = Math.floor(rest / p.units);
      if (qty > 0) parts.push({ name: p.name, qty });
      rest -= qty * p.units;
    }
  if (rest !== 0 || parts.length === 0) parts.push({ name: null, qty: fromCount(rest, unit) });
  return parts;
}

/** `packBreakdown`'s parts as text: "3 × Carton + 5". */
export const packBreakdownText = (parts: PackPart[]): string =>
  parts.map((p) => (p.name === null ? String(p.qty) : `${p.qty} × ${p.name}`)).join(' + ');

/** A product's packs as the API takes and answers them (issue 51; the rules: packs.ts). */
import { z } from 'zod';
import { Money, MoneyInput } from '../common.js';

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
    // Whole or to 3 decimals by the product's unit, which only the service knows (`quantityFault`).
    units: z.number().positive().max(1_000_000).meta({
      multipleOf: 0.001,
      description:
        "How much of the product one pack holds, in the product's unit: more than 1 (whole for a piece product, up to 3 decimals for a measured one)",
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

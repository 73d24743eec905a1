/**
 * Issue 51: an organisation's shop-scale label layouts (`scale_barcodes` on the organisation); the
 * rule that reads a label with them is scale-barcode.ts.
 */
import { z } from 'zod';

export const ScaleBarcodeRule = z
  .object({
    prefix: z
      .string()
      .regex(/^2\d{1,2}$/, 'an in-store prefix: 2 then one or two digits (20 to 29, or 200 to 299)')
      .meta({ example: '21' }),
    item_digits: z.int().min(1).max(7).meta({ description: "Digits of the product's scale item code (`scale_code`)", example: 5 }),
    value: z.enum(['weight', 'price']).meta({ description: 'weight: kilograms; price: shillings' }),
    value_digits: z.int().min(3).max(7).meta({ example: 5 }),
    decimals: z
      .int()
      .min(0)
      .max(3)
      .meta({ description: 'Decimal places of the value: 3 for a weight in grams, 0 for a price in shillings' }),
  })
  .refine((r) => r.prefix.length + r.item_digits + r.value_digits === 12, {
    message: 'prefix, item and value digits must make the 12 digits before the check digit',
  })
  .refine((r) => r.value === 'weight' || r.decimals <= 2, { message: 'a price takes at most 2 decimals', path: ['decimals'] })
  .meta({ id: 'ScaleBarcodeRule' });
export type ScaleBarcodeRule = z.infer<typeof ScaleBarcodeRule>;

export const ScaleBarcodeConfig = z
  .object({
    enabled: z.boolean(),
    rules: z
      .array(ScaleBarcodeRule)
      .max(10)
      .refine((rules) => rules.every((a, i) => rules.every((b, j) => i === j || !b.prefix.startsWith(a.prefix))), {
        message: 'no prefix may begin another',
      }),
  })
  .meta({
    id: 'ScaleBarcodeConfig',
    description: "How the organisation's shop scales print EAN-13 labels (prefix + item code + weight or price + check digit)",
  });
export type ScaleBarcodeConfig = z.infer<typeof ScaleBarcodeConfig>;

/** An organisation that never set its scales: off, with Odoo's usual layouts ready to switch on. */
export const DEFAULT_SCALE_BARCODES: ScaleBarcodeConfig = {
  enabled: false,
  rules: [
    { prefix: '21', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 },
    { prefix: '23', item_digits: 5, value: 'price', value_digits: 5, decimals: 0 },
  ],
};

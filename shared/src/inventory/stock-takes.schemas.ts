/**
 * Issue 52, stock-takes: a count of a store's shelves, its counters' counts, the review (expected,
 * counted, variance in units and at cost) and its apply. docs/inventory.md "Stock-takes".
 * Quantities are in the product's unit: whole for a piece product, up to 3 decimals for a measured one.
 */
import { z } from 'zod';
import { Money, Timestamp } from '../common.js';
import { QuantityInput, quantityFault, Unit } from './units.js';

export const StockTakeScope = z.enum(['all', 'category', 'products']).meta({
  description: 'What is counted: every stocked product of the store, one category, or a list of products',
});
export const StockTakeStatus = z.enum(['open', 'applied', 'cancelled']);

export const OpenStockTakeInput = z
  .object({
    scope: StockTakeScope,
    category_id: z.uuid().optional().meta({ description: 'The category counted: required with scope `category`, refused otherwise' }),
    product_ids: z
      .array(z.uuid())
      .min(1)
      .max(2000)
      .optional()
      .meta({ description: 'The products counted: required with scope `products`, refused otherwise' }),
    note: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'OpenStockTakeInput' });
export type OpenStockTakeInput = z.infer<typeof OpenStockTakeInput>;

/** A counted quantity: 0 is a count too (an empty shelf). */
const CountedQty = z
  .number()
  .min(0)
  .max(1_000_000)
  .refine((v) => quantityFault(v, 'kg') === null, 'at most 3 decimals')
  .meta({ multipleOf: 0.001, description: QuantityInput.meta()?.description });

export const StockTakeCountInput = z
  .object({
    id: z.uuid().meta({ description: 'Made by the till: a count sent again with the same id is recognised and not added twice' }),
    product_id: z.uuid(),
    qty: CountedQty,
    counted_at: z.iso.datetime({ offset: true }).optional().meta({ description: 'When it was counted on the till; now when left out' }),
    device_id: z.string().trim().min(1).max(100).optional(),
  })
  .meta({ id: 'StockTakeCountInput' });

export const AddStockTakeCountsInput = z
  .object({
    counts: z
      .array(StockTakeCountInput)
      .min(1)
      .max(500)
      .meta({ description: "Counts of the products in the count's scope; several counts of one product are summed" }),
  })
  .meta({ id: 'AddStockTakeCountsInput' });
export type AddStockTakeCountsInput = z.infer<typeof AddStockTakeCountsInput>;

export const ApplyStockTakeInput = z
  .object({
    uncounted: z
      .enum(['leave', 'zero'])
      .meta({ description: 'What happens to products in the scope nobody counted: left as they are, or set to zero' }),
  })
  .meta({ id: 'ApplyStockTakeInput' });
export type ApplyStockTakeInput = z.infer<typeof ApplyStockTakeInput>;

export const StockTakeLine = z
  .object({
    product_id: z.uuid(),
    name: z.string(),
    unit: Unit,
    expected: z.number().nullable().meta({
      description:
        "In the product's unit: the store's level when the product's first count arrived (so sales during the count are not lost); for a product not counted yet, its level now",
    }),
    counted: z.number().nullable().meta({ description: "The counts summed, in the product's unit; null when nobody counted it" }),
    variance: z
      .number()
      .nullable()
      .meta({ description: "counted − expected, in the product's unit (up to 3 decimals); null when not counted" }),
    cost_price: Money.meta({ description: 'TZS per unit the variance is valued at (frozen when applied)' }),
    variance_value: Money.nullable().meta({
      description: 'variance × cost price, TZS; a measured line rounded half up to the shilling, once per line',
    }),
    first_counted_at: Timestamp.nullable(),
    change: z.number().nullable().meta({ description: 'The adjustment apply posted, in the unit; null before apply or when left alone' }),
  })
  .meta({ id: 'StockTakeLine' });
export type StockTakeLine = z.infer<typeof StockTakeLine>;

export const StockTakeTotals = z.object({
  products: z.int(),
  counted: z.int().meta({ description: 'Products counted at least once' }),
  over: z.int().meta({ description: 'Products with more on the shelf than expected' }),
  short: z.int().meta({ description: 'Products with less on the shelf than expected' }),
  variance_value: Money.meta({ description: 'Sum of the lines’ variance at cost, TZS' }),
});

export const StockTakeSummary = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    scope: StockTakeScope,
    category_id: z.uuid().nullable(),
    status: StockTakeStatus,
    uncounted: z.enum(['leave', 'zero']).nullable(),
    note: z.string().nullable(),
    opened_by: z.uuid().nullable(),
    opened_at: Timestamp,
    closed_by: z.uuid().nullable(),
    closed_at: Timestamp.nullable(),
    totals: StockTakeTotals,
  })
  .meta({ id: 'StockTakeSummary' });
export type StockTakeSummary = z.infer<typeof StockTakeSummary>;

export const StockTake = StockTakeSummary.extend({ lines: z.array(StockTakeLine) }).meta({ id: 'StockTake' });
export type StockTake = z.infer<typeof StockTake>;

export const ListStockTakesQuery = z.object({
  status: StockTakeStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

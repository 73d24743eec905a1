/**
 * Issue 52, reorder suggestions: what to order for a store, by supplier, each suggestion with the
 * figures it comes from. The rule is docs/inventory.md "Reorder suggestions" (server
 * modules/inventory/reorder/reorder-rule.ts). Quantities are in the product's unit.
 */
import { z } from 'zod';
import { Unit } from './units.js';

export const ReorderSuggestionsQuery = z.object({
  store_id: z.uuid().optional().meta({
    description: 'A store of your organisation (owners: any; others: their active store only); default: the active store',
  }),
  cover_days: z.coerce
    .number()
    .int()
    .min(0)
    .max(180)
    .default(14)
    .meta({ description: 'Days of sales an order should last once it arrives, on top of the lead time (default 14)' }),
});
export type ReorderSuggestionsQuery = z.infer<typeof ReorderSuggestionsQuery>;

const qty = (description: string) => z.number().meta({ description: `${description}, in the product's unit` });

export const ReorderSuggestion = z
  .object({
    product_id: z.uuid(),
    name: z.string(),
    unit: Unit,
    reasons: z
      .array(z.enum(['at_reorder_point', 'runs_out_within_lead_time']))
      .meta({ description: 'Why it is suggested: at or under its reorder point, and/or its stock lasts fewer days than the lead time' }),
    sold: qty('Sold in the store over the window (the last `window_days` days), net of refunds'),
    avg_daily_sales: qty('`sold` ÷ `window_days`, to 3 decimals (shown; the sum uses `sold` exactly)'),
    lead_time_days: z.int(),
    cover_days: z.int(),
    days_left: z.number().nullable().meta({ description: 'stock ÷ avg_daily_sales, to 1 decimal; null with no sales' }),
    needed: qty('avg_daily_sales × (lead_time_days + cover_days), rounded up to the count (a piece, a gram)'),
    reorder_point: qty('Its reorder point: the least an order brings the stock back to'),
    stock: qty('Stock in the store now'),
    on_order: qty('Ordered from suppliers (sent or partly received orders) and not yet received'),
    on_draft: qty('On draft purchase orders not yet sent: decided on, so counted like on_order'),
    suggested: qty('max(needed, reorder_point) − stock − on_order − on_draft, rounded up to a whole piece or unit, or to whole packs'),
    pack: z
      .object({ id: z.uuid(), name: z.string(), units: z.number(), packs: z.int() })
      .nullable()
      .meta({ description: 'The largest pack of the product, and how many of it the suggestion is; null: no pack' }),
  })
  .meta({ id: 'ReorderSuggestion' });
export type ReorderSuggestion = z.infer<typeof ReorderSuggestion>;

export const ReorderGroup = z
  .object({
    supplier_id: z.uuid().nullable().meta({ description: "The supplier of the product's last delivery; null: unknown supplier" }),
    supplier_name: z.string().nullable(),
    lead_time_days: z.int().meta({ description: "The supplier's lead time, 7 when it has none (or is unknown)" }),
    suggestions: z.array(ReorderSuggestion),
  })
  .meta({ id: 'ReorderGroup' });
export type ReorderGroup = z.infer<typeof ReorderGroup>;

export const ReorderSuggestions = z
  .object({
    store_id: z.uuid(),
    window_days: z.int().meta({ description: 'Days of sales averaged (28)' }),
    cover_days: z.int(),
    groups: z.array(ReorderGroup).meta({ description: 'By supplier name, the unknown supplier last; suggestions by product name' }),
  })
  .meta({ id: 'ReorderSuggestions' });
export type ReorderSuggestions = z.infer<typeof ReorderSuggestions>;

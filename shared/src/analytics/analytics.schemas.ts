/**
 * Owner analytics (contract "Analytics"): queries and the contract's named shapes. The routes the
 * contract leaves without shapes are in analytics-reports.schemas.ts.
 */
import { z } from 'zod';
import { Unit } from '../inventory/units.js';
import { DateString, Money } from '../common.js';
import { PaymentMethod } from '../payment-methods.js';

/** What `items_sold` counts wherever it is answered (docs/inventory.md, "Items sold"). */
export const ITEMS_SOLD =
  'Items on the counted sales: the pieces of piece products (a carton of 24 is 24), and one per line of a measured product (0.5 kg of sugar is one item): kilos are never added to pieces. Quantities in their unit are per product';

const RANGE_NOTE =
  "Local dates (`YYYY-MM-DD`) in the organisation's time zone, both included. Default: the last 30 local days, today included; " +
  '`date_from` alone runs to today, `date_to` alone is the 30 days ending that day. At most 731 days; `date_from` after `date_to` is 400.';

/** The query every analytics route accepts. */
export const AnalyticsQuery = z.object({
  date_from: DateString.optional().meta({ description: `First day. ${RANGE_NOTE}` }),
  date_to: DateString.optional().meta({ description: 'Last day (included)' }),
  store_id: z.uuid().optional().meta({
    description: "Only this store of the organisation (another organisation's id answers 404). Default: every store of the organisation.",
  }),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

const ScopeFields = {
  date_from: DateString,
  date_to: DateString,
  store_id: z.uuid().nullable().meta({ description: 'The store analysed; null = the whole organisation' }),
};

export const AnalyticsSummary = z
  .object({
    revenue: Money.meta({
      description: 'Sum of sale totals (VAT included, after discount) of `paid` and `credit` sales; refunded and voided sales excluded',
    }),
    transaction_count: z.int().meta({ description: 'Number of `paid` and `credit` sales' }),
    average_ticket: Money.meta({ description: 'revenue / transaction_count (0 when none)' }),
    profit: Money.meta({
      description:
        'Gross profit net of VAT: Σ over lines (line total − line discount − VAT in the line − qty × cost price in force at the sale)',
    }),
    cost: Money.meta({
      description:
        'Σ over lines of qty × cost price at the time of each sale (a measured line, e.g. 0.5 kg, rounded half up to the shilling like its price)',
    }),
    vat: Money.meta({ description: 'VAT contained in revenue (0 for stores not charging VAT)' }),
    discount_total: Money,
    margin_pct: z.number().nullable().meta({ description: 'profit / (revenue − vat) × 100, two decimals; null when there is no revenue' }),
    items_sold: z.int().meta({ description: ITEMS_SOLD }),
    refund_count: z.int().meta({ description: 'Sales made in the range that were refunded (not in revenue)' }),
    refund_total: Money,
    void_count: z.int().meta({ description: 'Sales made in the range that were voided (not in revenue)' }),
    void_total: Money,
    ...ScopeFields,
  })
  .meta({ id: 'AnalyticsSummary' });
export type AnalyticsSummary = z.infer<typeof AnalyticsSummary>;

export const TrendPoint = z
  .object({ date: DateString, revenue: Money, count: z.int().meta({ description: 'Counted sales' }) })
  .meta({ id: 'AnalyticsTrendPoint' });
export const AnalyticsTrend = z
  .object({
    trend: z.array(TrendPoint).meta({ description: 'One entry per local day of the range, oldest first, days without sales included' }),
    ...ScopeFields,
  })
  .meta({ id: 'AnalyticsTrend' });
export type AnalyticsTrend = z.infer<typeof AnalyticsTrend>;

export const PaymentMix = z.record(z.string(), Money).meta({
  id: 'PaymentMix',
  description: `Revenue by payment method; every method (${PaymentMethod.options.map((m) => `\`${m}\``).join(', ')}) present, 0 when unused`,
});
export const AnalyticsPaymentMix = z.object({ payment_mix: PaymentMix, ...ScopeFields }).meta({ id: 'AnalyticsPaymentMix' });
export type AnalyticsPaymentMix = z.infer<typeof AnalyticsPaymentMix>;

export const TopProductsQuery = AnalyticsQuery.extend({
  limit: z.coerce.number().int().min(1).max(50).default(10).meta({ description: '1-50, default 10' }),
});
export type TopProductsQuery = z.infer<typeof TopProductsQuery>;
export const TopProduct = z
  .object({
    product_id: z.uuid(),
    name: z.string().meta({ description: "The product's current name (the name on the receipt if it was deleted)" }),
    unit: Unit.meta({ description: "The product's unit (piece if it was deleted)" }),
    qty_sold: z.number().meta({ description: "In the product's unit (whole for a piece product)" }),
    revenue: Money.meta({ description: 'Σ line total − line discount (VAT included)' }),
    profit: Money.meta({ description: 'Net of VAT, at the cost price in force at each sale' }),
  })
  .meta({ id: 'TopProduct' });
export type TopProduct = z.infer<typeof TopProduct>;
export const AnalyticsTopProducts = z
  .object({ top_products: z.array(TopProduct).meta({ description: 'By revenue, highest first' }), ...ScopeFields })
  .meta({ id: 'AnalyticsTopProducts' });
export type AnalyticsTopProducts = z.infer<typeof AnalyticsTopProducts>;

export const OVERVIEW_SECTIONS = ['kpis', 'trend', 'mix', 'products'] as const;
export const OverviewQuery = AnalyticsQuery.extend({
  sections: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return [...OVERVIEW_SECTIONS];
      const parts = [...new Set(v.split(',').map((s) => s.trim()))];
      const bad = parts.filter((p) => !(OVERVIEW_SECTIONS as readonly string[]).includes(p));
      if (bad.length) ctx.addIssue({ code: 'custom', message: `unknown section ${bad.join(', ')}; use ${OVERVIEW_SECTIONS.join(', ')}` });
      return parts as Array<(typeof OVERVIEW_SECTIONS)[number]>;
    })
    .meta({ type: 'string', description: 'Comma list of `kpis`, `trend`, `mix`, `products`; default all' } as Record<string, unknown>),
});
export type OverviewQuery = z.infer<typeof OverviewQuery>;

export const AnalyticsOverview = z
  .object({
    kpis: AnalyticsSummary.omit({ date_from: true, date_to: true, store_id: true })
      .optional()
      .meta({ description: 'Section `kpis`: the figures of /analytics/summary' }),
    trend: z
      .object({ labels: z.array(DateString), values: z.array(Money) })
      .optional()
      .meta({ description: 'Section `trend`: revenue per local day, labels and values in step, zero days included' }),
    payment_mix: PaymentMix.optional().meta({ description: 'Section `mix`' }),
    top_products: z.array(TopProduct).optional().meta({ description: 'Section `products`: the 5 best by revenue' }),
    ...ScopeFields,
  })
  .meta({ id: 'AnalyticsOverview', description: 'Sections not asked for are absent' });
export type AnalyticsOverview = z.infer<typeof AnalyticsOverview>;

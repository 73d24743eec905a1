/** Owner analytics the contract names without shapes: sales, customers, cashflow, dashboard, products. */
import { z } from 'zod';
import { Unit } from '../inventory/units.js';
import { DateString, Money } from '../common.js';
import { PageQuery } from '../envelope.js';
import { PaymentMethod } from '../payment-methods.js';
import { AnalyticsQuery, AnalyticsSummary, ITEMS_SOLD } from './analytics.schemas.js';

const ScopeFields = {
  date_from: DateString,
  date_to: DateString,
  store_id: z.uuid().nullable().meta({ description: 'The store analysed; null = the whole organisation' }),
};

const Figures = {
  revenue: Money.meta({ description: 'Σ totals of `paid` and `credit` sales (VAT included, after discount)' }),
  count: z.int().meta({ description: 'Number of those sales' }),
  profit: Money.meta({ description: 'Net of VAT, at the cost price in force at each sale' }),
};

export const SalesReport = z
  .object({
    totals: AnalyticsSummary.omit({ date_from: true, date_to: true, store_id: true }),
    by_day: z
      .array(z.object({ date: DateString, ...Figures }))
      .meta({ description: 'Every local day of the range, oldest first, zero days included' }),
    by_store: z
      .array(z.object({ store_id: z.uuid(), name: z.string(), ...Figures }))
      .meta({ description: 'Every store in scope (stores without sales included), by revenue, highest first' }),
    by_cashier: z
      .array(z.object({ cashier_id: z.uuid().nullable(), name: z.string(), ...Figures }))
      .meta({ description: 'People who rang up sales, by revenue; `cashier_id` null for sales with no recorded cashier' }),
    by_payment_method: z
      .array(z.object({ method: z.string(), revenue: Money, count: z.int() }))
      .meta({ description: `Every payment method, in the order ${PaymentMethod.options.join(', ')}` }),
    ...ScopeFields,
  })
  .meta({ id: 'SalesReport' });
export type SalesReport = z.infer<typeof SalesReport>;

export const CustomersReport = z
  .object({
    customers_served: z.int().meta({ description: 'Distinct customers on a counted sale in the range' }),
    new_customers: z.int().meta({ description: 'Of those, customers whose first counted sale (in scope) is in the range' }),
    returning_customers: z.int().meta({ description: 'Of those, customers who had bought before the range' }),
    named_revenue: Money.meta({ description: 'Revenue of sales to a recorded customer' }),
    walk_in_revenue: Money.meta({ description: 'Revenue of sales without a customer' }),
    walk_in_count: z.int(),
    segments: z.object({ New: z.int(), Regular: z.int(), VIP: z.int(), Occasional: z.int() }).meta({
      description:
        'Active customers of the organisation by their current segment (segments are organisation-wide: not filtered by date or store)',
    }),
    top_customers: z
      .array(
        z.object({
          customer_id: z.uuid(),
          name: z.string(),
          phone: z.string().nullable(),
          segment: z.string(),
          revenue: Money,
          count: z.int(),
        }),
      )
      .meta({ description: 'The 10 customers with the most revenue in the range' }),
    outstanding_credit: z
      .object({
        total: Money.meta({ description: 'Unpaid balance of open and partly paid tabs, today (not limited to the range)' }),
        customers: z.int().meta({ description: 'Customers owing' }),
        overdue_total: Money.meta({ description: 'Part of `total` on tabs past their due date' }),
        overdue_customers: z.int(),
      })
      .meta({ description: 'Credit owed now, in scope (store filter applies to the store the tab was opened in)' }),
    ...ScopeFields,
  })
  .meta({ id: 'CustomersReport' });
export type CustomersReport = z.infer<typeof CustomersReport>;

const MethodMap = z.record(z.string(), Money).meta({ description: 'Amount by payment method' });

export const CashflowReport = z
  .object({
    money_in: z.object({
      sales: MethodMap.meta({
        description:
          'Takings at the till by method on the day of sale: non-credit sales that were not voided (refunded ones included: the refund is money out)',
      }),
      credit_payments: MethodMap.meta({ description: 'Payments received against credit tabs, by method' }),
      total: Money,
    }),
    money_out: z.object({
      refunds: Money.meta({
        description:
          'Refunds on the day they were made: the total of a refunded non-credit sale, what had been paid on a refunded credit sale',
      }),
      expenses: Money,
      expenses_by_category: z.record(z.string(), Money),
      supplier_payments: Money,
      total: Money,
    }),
    net: Money.meta({ description: 'money_in.total − money_out.total' }),
    by_day: z
      .array(z.object({ date: DateString, money_in: Money, money_out: Money, net: Money }))
      .meta({ description: 'Every local day of the range, oldest first, zero days included' }),
    ...ScopeFields,
  })
  .meta({
    id: 'CashflowReport',
    description: 'Money actually received and paid out, by local day; credit sales count when paid, not when sold',
  });
export type CashflowReport = z.infer<typeof CashflowReport>;

const DayFigures = z.object({
  date: DateString,
  revenue: Money,
  transaction_count: z.int(),
  average_ticket: Money,
  profit: Money,
  items_sold: z.int().meta({ description: ITEMS_SOLD }),
  revenue_to_same_time: Money.meta({ description: 'Revenue up to the same local time of day as `as_of` (the whole day for past days)' }),
  count_to_same_time: z.int(),
});
const Change = z.object({ revenue_pct: z.number().nullable(), transaction_count_pct: z.number().nullable() }).meta({
  description:
    'Change of today against the other day up to the same time of day, in percent (two decimals); null when the other day had none',
});

export const DashboardReport = z
  .object({
    as_of: z.string().meta({ description: 'The instant compared (now, or the end of `date_to` when it is a past day), ISO 8601' }),
    today: DayFigures,
    yesterday: DayFigures,
    same_day_last_week: DayFigures,
    vs_yesterday: Change,
    vs_last_week: Change,
    store_id: z.uuid().nullable(),
  })
  .meta({ id: 'DashboardReport', description: '`date_to` (default today) is the day shown as `today`; `date_from` is ignored' });
export type DashboardReport = z.infer<typeof DashboardReport>;

export const PRODUCT_SORTS = ['revenue', 'profit', 'qty', 'margin', 'stock_cover', 'name'] as const;
export const ProductsReportQuery = AnalyticsQuery.extend(PageQuery.shape).extend({
  category: z.uuid().optional().meta({ description: 'Only products of this category' }),
  sort: z.enum(PRODUCT_SORTS).default('revenue').meta({
    description:
      'revenue, profit, qty, margin: highest first; stock_cover: fewest days first (products that will run out soonest); name: A-Z',
  }),
});
export type ProductsReportQuery = z.infer<typeof ProductsReportQuery>;

export const ProductPerformance = z
  .object({
    product_id: z.uuid(),
    name: z.string(),
    category_id: z.uuid().nullable(),
    category_name: z.string().nullable(),
    unit: Unit,
    qty_sold: z.number().meta({ description: "In the product's unit (whole for a piece product)" }),
    revenue: Money,
    cost: Money,
    profit: Money,
    margin_pct: z.number().nullable().meta({ description: 'profit / revenue net of VAT × 100; null when nothing sold' }),
    stock: z
      .number()
      .nullable()
      .meta({ description: "Current stock in scope (the store, or all stores), in the product's unit; null for services" }),
    stock_cover_days: z
      .number()
      .nullable()
      .meta({ description: 'stock ÷ average daily quantity sold over the range, one decimal; null when nothing sold or a service' }),
  })
  .meta({ id: 'ProductPerformance' });
export const ProductsReport = z
  .object({ items: z.array(ProductPerformance).meta({ description: 'Active products and any product sold in the range' }), ...ScopeFields })
  .meta({ id: 'ProductsReport' });
export type ProductsReport = z.infer<typeof ProductsReport>;

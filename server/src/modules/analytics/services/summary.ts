/** The contract's analytics: summary, trend, payment mix, top products, and the overview combining them. */
import type {
  AnalyticsOverview,
  AnalyticsPaymentMix,
  AnalyticsQuery,
  AnalyticsSummary,
  AnalyticsTopProducts,
  AnalyticsTrend,
  OverviewQuery,
  TopProductsQuery,
} from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { AuthedContext } from '../../../lib/context.js';
import { fromCents } from '../../../lib/money.js';
import { dayOf, lineTotals, lineTotalsByProduct, productsNamed, salesBy, totalsByStatusAndMethod, type Scope } from '../analytics.queries.js';
import { type Range, resolveRange, scopeFields } from './scope.js';

export const METHODS = ['Cash', 'M-Pesa', 'Tigo Pesa', 'Bank', 'Credit'] as const;

/** Percentage with two decimals, or null without a base. */
export const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 100 : null);

type Kpis = Omit<AnalyticsSummary, 'date_from' | 'date_to' | 'store_id'>;

/** The summary figures of a scope (also the dashboard's and the sales report's totals). */
export async function kpisOf(db: Kysely<Database>, s: Scope): Promise<Kpis & { mix: Record<string, number> }> {
  const [byStatus, lines] = await Promise.all([totalsByStatusAndMethod(db, s), lineTotals(db, s)]);
  const sold = byStatus.filter((r) => r.status === 'paid' || r.status === 'credit');
  const add = (rows: typeof byStatus, k: 'n' | 'total' | 'tax' | 'discount') => rows.reduce((sum, r) => sum + r[k], 0);
  const count = add(sold, 'n');
  const revenue = add(sold, 'total');
  const vat = add(sold, 'tax');
  const profit = lines.revenue - lines.tax - lines.cost;
  const refunds = byStatus.filter((r) => r.status === 'refunded');
  const voids = byStatus.filter((r) => r.status === 'void');
  const mix = Object.fromEntries(METHODS.map((m) => [m, fromCents(add(sold.filter((r) => r.method === m), 'total'))]));
  return {
    revenue: fromCents(revenue),
    transaction_count: count,
    average_ticket: count ? fromCents(Math.round(revenue / count)) : 0,
    profit: fromCents(profit),
    cost: fromCents(lines.cost),
    vat: fromCents(vat),
    discount_total: fromCents(add(sold, 'discount')),
    margin_pct: pct(profit, revenue - vat),
    items_sold: lines.qty,
    refund_count: add(refunds, 'n'),
    refund_total: fromCents(add(refunds, 'total')),
    void_count: add(voids, 'n'),
    void_total: fromCents(add(voids, 'total')),
    mix,
  };
}

export async function summary(ctx: AuthedContext, q: AnalyticsQuery): Promise<AnalyticsSummary> {
  const r = await resolveRange(ctx, q);
  const { mix: _mix, ...kpis } = await kpisOf(ctx.db, r);
  return { ...kpis, ...scopeFields(r) };
}

/** Revenue and count of every local day of the range, zero days included. */
export async function dailySales(db: Kysely<Database>, r: Range) {
  const days = r.dates.map((date) => ({ date, cents: 0, count: 0 }));
  for (const row of await salesBy(db, r, { buckets: r.buckets })) {
    const d = days[dayOf(Number(row.key), r.buckets)];
    if (!d) continue;
    d.cents += row.total;
    d.count += row.n;
  }
  return days;
}

export async function trend(ctx: AuthedContext, q: AnalyticsQuery): Promise<AnalyticsTrend> {
  const r = await resolveRange(ctx, q);
  const days = await dailySales(ctx.db, r);
  return { trend: days.map((d) => ({ date: d.date, revenue: fromCents(d.cents), count: d.count })), ...scopeFields(r) };
}

export async function paymentMix(ctx: AuthedContext, q: AnalyticsQuery): Promise<AnalyticsPaymentMix> {
  const r = await resolveRange(ctx, q);
  const rows = await totalsByStatusAndMethod(ctx.db, r);
  const mix = Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<string, number>;
  for (const row of rows) if (row.status === 'paid' || row.status === 'credit') mix[row.method] = (mix[row.method] ?? 0) + row.total;
  return { payment_mix: Object.fromEntries(Object.entries(mix).map(([m, c]) => [m, fromCents(c)])), ...scopeFields(r) };
}

/** Products by revenue, highest first (ties by quantity, then id), with their current names. */
export async function bestProducts(db: Kysely<Database>, s: Scope, limit: number) {
  const rows = await lineTotalsByProduct(db, s);
  rows.sort((a, b) => b.revenue - a.revenue || b.qty - a.qty || (a.productId < b.productId ? -1 : 1));
  const top = rows.slice(0, limit);
  const names = new Map((await productsNamed(db, s.orgId, top.map((p) => p.productId))).map((p) => [p.id, p.name]));
  return top.map((p) => ({
    product_id: p.productId,
    name: names.get(p.productId) ?? p.productName,
    qty_sold: p.qty,
    revenue: fromCents(p.revenue),
    profit: fromCents(p.revenue - p.tax - p.cost),
  }));
}

export async function topProducts(ctx: AuthedContext, q: TopProductsQuery): Promise<AnalyticsTopProducts> {
  const r = await resolveRange(ctx, q);
  return { top_products: await bestProducts(ctx.db, r, q.limit), ...scopeFields(r) };
}

export const OVERVIEW_TOP = 5;

export async function overview(ctx: AuthedContext, q: OverviewQuery): Promise<AnalyticsOverview> {
  const r = await resolveRange(ctx, q);
  const want = new Set(q.sections);
  const [kpis, days, products] = await Promise.all([
    want.has('kpis') || want.has('mix') ? kpisOf(ctx.db, r) : null,
    want.has('trend') ? dailySales(ctx.db, r) : null,
    want.has('products') ? bestProducts(ctx.db, r, OVERVIEW_TOP) : null,
  ]);
  const out: AnalyticsOverview = { ...scopeFields(r) };
  if (kpis && want.has('kpis')) {
    const { mix: _mix, ...figures } = kpis;
    out.kpis = figures;
  }
  if (days) out.trend = { labels: days.map((d) => d.date), values: days.map((d) => fromCents(d.cents)) };
  if (kpis && want.has('mix')) out.payment_mix = kpis.mix;
  if (products) out.top_products = products;
  return out;
}

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
import { PaymentMethod, SoldStatus, fromCents, fromCount } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { AuthedContext } from '../../../lib/context.js';
import { receiptNames, type RollupFigures, rollupProducts, rollupTotalsBy } from '../analytics-rollups.queries.js';
import { lineTotals, mixedSalesByMethod, productsNamed, totalsByStatusAndMethod, type Scope } from '../analytics.queries.js';
import { refreshRollups } from './rollups.js';
import { type Range, resolveRange, scopeFields } from './scope.js';
import { requireRole } from '../../../lib/auth/authorize.js';

/** Percentage with two decimals, or null without a base. */
export const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 100 : null);

type Kpis = Omit<AnalyticsSummary, 'date_from' | 'date_to' | 'store_id'>;

/** The sums every summary figure is made of (cents), whether read from the ledger or the rollups. */
interface Sums {
  /** `paid` and `credit` sales by payment method (a sale paid several ways under `Mixed`). */
  methods: Array<{ method: string; count: number; revenue: number; vat: number; discount: number }>;
  /** The `Mixed` sales' parts per method (`mixedSalesByMethod`): the mix counts each part under its method. */
  mixed: Array<{ method: string; revenue: number }>;
  items: number;
  /** Σ over their lines of line total − line discount − line tax. */
  net: number;
  cost: number;
  refundCount: number;
  refundTotal: number;
  voidCount: number;
  voidTotal: number;
}

function kpisFrom(f: Sums): Kpis & { mix: Record<string, number> } {
  const add = (k: 'count' | 'revenue' | 'vat' | 'discount', rows = f.methods) => rows.reduce((sum, r) => sum + r[k], 0);
  const count = add('count');
  const revenue = add('revenue');
  const vat = add('vat');
  const profit = f.net - f.cost;
  const mix = Object.fromEntries(
    PaymentMethod.options.map((m) => [
      m,
      fromCents(
        add(
          'revenue',
          f.methods.filter((r) => r.method === m),
        ) + f.mixed.filter((r) => r.method === m).reduce((sum, r) => sum + r.revenue, 0),
      ),
    ]),
  );
  return {
    revenue: fromCents(revenue),
    transaction_count: count,
    average_ticket: count ? fromCents(Math.round(revenue / count)) : 0,
    profit: fromCents(profit),
    cost: fromCents(f.cost),
    vat: fromCents(vat),
    discount_total: fromCents(add('discount')),
    margin_pct: pct(profit, revenue - vat),
    items_sold: f.items,
    refund_count: f.refundCount,
    refund_total: fromCents(f.refundTotal),
    void_count: f.voidCount,
    void_total: fromCents(f.voidTotal),
    mix,
  };
}

/** The summary figures of any instant range, from the ledger (the dashboard's days). */
export async function kpisOf(db: Kysely<Database>, s: Scope): Promise<Kpis & { mix: Record<string, number> }> {
  const [byStatus, lines, mixed] = await Promise.all([totalsByStatusAndMethod(db, s), lineTotals(db, s), mixedSalesByMethod(db, s)]);
  const sum = (status: string[]) => byStatus.filter((r) => status.includes(r.status));
  return kpisFrom({
    // A sale refunded in part (issue 51) counts less what its refunds gave back, which counts with the refunds (as the rollups do).
    methods: sum(SoldStatus.options).map((r) => ({
      method: r.method,
      count: r.n,
      revenue: r.total - r.refundedTotal,
      vat: r.tax - r.refundedTax,
      discount: r.discount,
    })),
    mixed,
    items: lines.items,
    net: lines.revenue - lines.tax,
    cost: lines.cost,
    refundCount: sum(['refunded']).reduce((a, r) => a + r.n, 0) + sum(SoldStatus.options).reduce((a, r) => a + r.partRefunded, 0),
    refundTotal: sum(['refunded']).reduce((a, r) => a + r.total, 0) + sum(SoldStatus.options).reduce((a, r) => a + r.refundedTotal, 0),
    voidCount: sum(['void']).reduce((a, r) => a + r.n, 0),
    voidTotal: sum(['void']).reduce((a, r) => a + r.total, 0),
  });
}

/** The summary figures of a range of whole local days, from the daily rollups (refreshed by the caller). */
export async function rollupKpis(db: Kysely<Database>, r: Range): Promise<Kpis & { mix: Record<string, number> }> {
  const [rows, mixed] = await Promise.all([rollupTotalsBy(db, r, 'payment_method'), mixedSalesByMethod(db, r)]);
  const total = (k: keyof RollupFigures) => rows.reduce((a, row) => a + row[k], 0);
  return kpisFrom({
    methods: rows
      .filter((row) => row.salesCount > 0)
      .map((row) => ({ method: row.key!, count: row.salesCount, revenue: row.revenue, vat: row.vat, discount: row.discount })),
    mixed,
    items: total('items'),
    net: total('net'),
    cost: total('cost'),
    refundCount: total('refundCount'),
    refundTotal: total('refundTotal'),
    voidCount: total('voidCount'),
    voidTotal: total('voidTotal'),
  });
}

/** The range of a query, with the rollups brought up to date for reading it. */
export async function rollupRange(ctx: AuthedContext, q: AnalyticsQuery): Promise<Range> {
  const r = await resolveRange(ctx, q);
  await refreshRollups(ctx, r.orgId);
  return r;
}

export async function summary(ctx: AuthedContext, q: AnalyticsQuery): Promise<AnalyticsSummary> {
  requireRole(ctx, 'owner');
  const r = await rollupRange(ctx, q);
  const { mix: _mix, ...kpis } = await rollupKpis(ctx.readDb, r);
  return { ...kpis, ...scopeFields(r) };
}

/** Revenue and count of every local day of the range, zero days included (from the rollups). */
export async function dailySales(db: Kysely<Database>, r: Range) {
  const days = r.dates.map((date) => ({ date, cents: 0, count: 0 }));
  const index = new Map(r.dates.map((d, i) => [d, i]));
  for (const row of await rollupTotalsBy(db, r, 'day')) {
    const d = days[index.get(row.key!) ?? -1];
    if (!d) continue;
    d.cents += row.revenue;
    d.count += row.salesCount;
  }
  return days;
}

export async function trend(ctx: AuthedContext, q: AnalyticsQuery): Promise<AnalyticsTrend> {
  requireRole(ctx, 'owner');
  const r = await rollupRange(ctx, q);
  const days = await dailySales(ctx.readDb, r);
  return { trend: days.map((d) => ({ date: d.date, revenue: fromCents(d.cents), count: d.count })), ...scopeFields(r) };
}

export async function paymentMix(ctx: AuthedContext, q: AnalyticsQuery): Promise<AnalyticsPaymentMix> {
  requireRole(ctx, 'owner');
  const r = await rollupRange(ctx, q);
  const [rows, mixed] = await Promise.all([rollupTotalsBy(ctx.readDb, r, 'payment_method'), mixedSalesByMethod(ctx.readDb, r)]);
  const mix = Object.fromEntries(PaymentMethod.options.map((m) => [m, 0])) as Record<string, number>;
  for (const row of rows) if (row.salesCount > 0) mix[row.key!] = (mix[row.key!] ?? 0) + row.revenue;
  // A sale paid several ways: each part under its method (issue 51), never under `Mixed`.
  delete mix.Mixed;
  for (const part of mixed) mix[part.method] = (mix[part.method] ?? 0) + part.revenue;
  return { payment_mix: Object.fromEntries(Object.entries(mix).map(([m, c]) => [m, fromCents(c)])), ...scopeFields(r) };
}

/** Products by revenue, highest first (ties by quantity, then id), with their current names. */
export async function bestProducts(db: Kysely<Database>, r: Range, limit: number) {
  const rows = await rollupProducts(db, r);
  rows.sort((a, b) => b.revenue - a.revenue || b.qty - a.qty || (a.productId < b.productId ? -1 : 1));
  const top = rows.slice(0, limit);
  const found = await productsNamed(
    db,
    r.orgId,
    top.map((p) => p.productId),
  );
  const names = new Map(found.map((p) => [p.id, p.name]));
  const units = new Map(found.map((p) => [p.id, p.unit]));
  const gone = await receiptNames(
    db,
    r.orgId,
    top.filter((p) => !names.has(p.productId)).map((p) => p.productId),
  );
  return top.map((p) => ({
    product_id: p.productId,
    name: names.get(p.productId) ?? gone.get(p.productId) ?? '',
    unit: units.get(p.productId) ?? 'piece',
    // The rollup holds counts (grams of a kg product).
    qty_sold: fromCount(p.qty, units.get(p.productId) ?? 'piece'),
    revenue: fromCents(p.revenue),
    profit: fromCents(p.net - p.cost),
  }));
}

export async function topProducts(ctx: AuthedContext, q: TopProductsQuery): Promise<AnalyticsTopProducts> {
  requireRole(ctx, 'owner');
  const r = await rollupRange(ctx, q);
  return { top_products: await bestProducts(ctx.readDb, r, q.limit), ...scopeFields(r) };
}

export const OVERVIEW_TOP = 5;

export async function overview(ctx: AuthedContext, q: OverviewQuery): Promise<AnalyticsOverview> {
  requireRole(ctx, 'owner');
  const r = await rollupRange(ctx, q);
  const want = new Set(q.sections);
  const [kpis, days, products] = await Promise.all([
    want.has('kpis') || want.has('mix') ? rollupKpis(ctx.readDb, r) : null,
    want.has('trend') ? dailySales(ctx.readDb, r) : null,
    want.has('products') ? bestProducts(ctx.readDb, r, OVERVIEW_TOP) : null,
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

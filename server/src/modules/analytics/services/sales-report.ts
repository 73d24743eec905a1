/** Sales broken down by local day, store, cashier and payment method. */
import type { AnalyticsQuery, SalesReport } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { fromCents } from '../../../lib/money.js';
import { dayOf, lineTotalsBy, salesBy, storesOf, totalsByStatusAndMethod, usersNamed } from '../analytics.queries.js';
import { resolveRange, scopeFields } from './scope.js';
import { kpisOf, METHODS } from './summary.js';

type Acc = { cents: number; count: number; profit: number };
const acc = (): Acc => ({ cents: 0, count: 0, profit: 0 });
const out = (a: Acc) => ({ revenue: fromCents(a.cents), count: a.count, profit: fromCents(a.profit) });
const byRevenue = (a: { revenue: number; count: number }, b: { revenue: number; count: number }) => b.revenue - a.revenue || b.count - a.count;

export async function salesReport(ctx: AuthedContext, q: AnalyticsQuery): Promise<SalesReport> {
  const r = await resolveRange(ctx, q);
  const day = { buckets: r.buckets };
  const [kpis, byStatus, daySales, dayLines, storeSales, storeLines, cashierSales, cashierLines, stores] = await Promise.all([
    kpisOf(ctx.db, r),
    totalsByStatusAndMethod(ctx.db, r),
    salesBy(ctx.db, r, day),
    lineTotalsBy(ctx.db, r, day),
    salesBy(ctx.db, r, 'store'),
    lineTotalsBy(ctx.db, r, 'store'),
    salesBy(ctx.db, r, 'cashier'),
    lineTotalsBy(ctx.db, r, 'cashier'),
    storesOf(ctx.db, r),
  ]);
  const { mix: _mix, ...totals } = kpis;

  const days = r.dates.map(acc);
  for (const s of daySales) {
    const d = days[dayOf(Number(s.key), r.buckets)];
    if (d) (d.cents += s.total), (d.count += s.n);
  }
  for (const l of dayLines) {
    const d = days[dayOf(Number(l.key), r.buckets)];
    if (d) d.profit += l.revenue - l.tax - l.cost;
  }

  const keyed = (sales: typeof storeSales, lines: typeof storeLines) => {
    const m = new Map<string | null, Acc>();
    const get = (k: string | null) => m.get(k) ?? (m.set(k, acc()), m.get(k)!);
    for (const s of sales) Object.assign(get(s.key as string | null), { cents: s.total, count: s.n });
    for (const l of lines) get(l.key as string | null).profit = l.revenue - l.tax - l.cost;
    return m;
  };
  const perStore = keyed(storeSales, storeLines);
  const perCashier = keyed(cashierSales, cashierLines);
  const cashierIds = [...perCashier.keys()].filter((k): k is string => k !== null);
  const names = new Map((await usersNamed(ctx.db, r.orgId, cashierIds)).map((u) => [u.id, [u.first_name, u.last_name].filter(Boolean).join(' ')]));

  const methods = METHODS.map((method) => {
    const rows = byStatus.filter((s) => s.method === method && (s.status === 'paid' || s.status === 'credit'));
    return { method, revenue: fromCents(rows.reduce((a, s) => a + s.total, 0)), count: rows.reduce((a, s) => a + s.n, 0) };
  });

  return {
    totals,
    by_day: r.dates.map((date, i) => ({ date, ...out(days[i]!) })),
    by_store: stores.map((s) => ({ store_id: s.id, name: s.name, ...out(perStore.get(s.id) ?? acc()) })).sort(byRevenue),
    by_cashier: [...perCashier.entries()]
      .map(([id, a]) => ({ cashier_id: id, name: id ? (names.get(id) ?? 'Former user') : 'Unknown', ...out(a) }))
      .sort(byRevenue),
    by_payment_method: methods,
    ...scopeFields(r),
  };
}

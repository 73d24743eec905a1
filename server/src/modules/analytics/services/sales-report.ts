/** Sales broken down by local day, store, cashier and payment method. */
import { type AnalyticsQuery, PaymentMethod, type SalesReport, fromCents } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { type RollupFigures, rollupTotalsBy } from '../analytics-rollups.queries.js';
import { mixedSalesByMethod, storesOf, usersNamed } from '../analytics.queries.js';
import { scopeFields } from './scope.js';
import { rollupKpis, rollupRange } from './summary.js';
import { requireRole } from '../../../lib/auth/authorize.js';

type Acc = { cents: number; count: number; profit: number };
const acc = (): Acc => ({ cents: 0, count: 0, profit: 0 });
const out = (a: Acc) => ({ revenue: fromCents(a.cents), count: a.count, profit: fromCents(a.profit) });
const byRevenue = (a: { revenue: number; count: number }, b: { revenue: number; count: number }) =>
  b.revenue - a.revenue || b.count - a.count;

export async function salesReport(ctx: AuthedContext, q: AnalyticsQuery): Promise<SalesReport> {
  requireRole(ctx, 'owner');
  const r = await rollupRange(ctx, q);
  const [kpis, byMethod, mixed, byDay, byStore, byCashier, stores] = await Promise.all([
    rollupKpis(ctx.readDb, r),
    rollupTotalsBy(ctx.readDb, r, 'payment_method'),
    mixedSalesByMethod(ctx.readDb, r),
    rollupTotalsBy(ctx.readDb, r, 'day'),
    rollupTotalsBy(ctx.readDb, r, 'store_id'),
    rollupTotalsBy(ctx.readDb, r, 'cashier_id'),
    storesOf(ctx.readDb, r),
  ]);
  const { mix: _mix, ...totals } = kpis;
  const figures = (row: RollupFigures): Acc => ({ cents: row.revenue, count: row.salesCount, profit: row.net - row.cost });

  const dayIndex = new Map(r.dates.map((d, i) => [d, i]));
  const days = r.dates.map(acc);
  for (const row of byDay) {
    const i = dayIndex.get(row.key!);
    if (i !== undefined) days[i] = figures(row);
  }
  const perStore = new Map(byStore.map((row) => [row.key, figures(row)]));
  // People with counted sales only (a cashier whose sales were all refunded or voided is not listed).
  const perCashier = new Map(byCashier.filter((row) => row.salesCount > 0).map((row) => [row.key, figures(row)]));
  const cashierIds = [...perCashier.keys()].filter((k): k is string => k !== null);
  const names = new Map(
    (await usersNamed(ctx.readDb, r.orgId, cashierIds)).map((u) => [u.id, [u.first_name, u.last_name].filter(Boolean).join(' ')]),
  );

  // A sale paid several ways counts under each of its parts' methods, for that part (issue 51).
  const methods = PaymentMethod.options.map((method) => {
    const row = byMethod.find((m) => m.key === method);
    const part = mixed.find((m) => m.method === method);
    return { method, revenue: fromCents((row?.revenue ?? 0) + (part?.revenue ?? 0)), count: (row?.salesCount ?? 0) + (part?.count ?? 0) };
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

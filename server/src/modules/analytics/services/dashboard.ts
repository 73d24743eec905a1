/** Today against yesterday and the same weekday last week, each also up to the same time of day. */
import { fromCents } from '@duka/shared';
import type { AnalyticsQuery, DashboardReport } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { AuthedContext } from '../../../lib/context.js';
import { iso } from '../../../lib/clock.js';
import { addDays, localDate, localDayRange } from '../../../lib/time.js';
import { salesBy } from '../analytics.queries.js';
import { resolveRange } from './scope.js';
import { kpisOf, pct } from './summary.js';
import { requireRole } from '../../../lib/auth/authorize.js';

async function dayFigures(db: Kysely<Database>, orgId: string, storeId: string | null, date: string, tz: string, elapsed: number) {
  const { from, to } = localDayRange(date, tz);
  const cut = Math.min(to, from + elapsed);
  const [k, early] = await Promise.all([kpisOf(db, { orgId, storeId, from, to }), salesBy(db, { orgId, storeId, from, to: cut }, 'store')]);
  return {
    date,
    revenue: k.revenue,
    transaction_count: k.transaction_count,
    average_ticket: k.average_ticket,
    profit: k.profit,
    items_sold: k.items_sold,
    revenue_to_same_time: fromCents(early.reduce((a, s) => a + s.total, 0)),
    count_to_same_time: early.reduce((a, s) => a + s.n, 0),
  };
}

const change = (
  now: { revenue_to_same_time: number; count_to_same_time: number },
  then: { revenue_to_same_time: number; count_to_same_time: number },
) => ({
  revenue_pct: pct(now.revenue_to_same_time - then.revenue_to_same_time, then.revenue_to_same_time),
  transaction_count_pct: pct(now.count_to_same_time - then.count_to_same_time, then.count_to_same_time),
});

export async function dashboard(ctx: AuthedContext, q: AnalyticsQuery): Promise<DashboardReport> {
  requireRole(ctx, 'owner');
  const r = await resolveRange(ctx, { date_to: q.date_to, store_id: q.store_id });
  const now = ctx.clock.now();
  const day = r.dateTo;
  const { from, to } = localDayRange(day, r.tz);
  const asOf = day === localDate(now, r.tz) ? now : to;
  const elapsed = Math.max(0, asOf - from);
  const [today, yesterday, lastWeek] = await Promise.all(
    [day, addDays(day, -1), addDays(day, -7)].map((d) => dayFigures(ctx.readDb, r.orgId, r.storeId, d, r.tz, elapsed)),
  );
  return {
    as_of: iso(asOf),
    today: today!,
    yesterday: yesterday!,
    same_day_last_week: lastWeek!,
    vs_yesterday: change(today!, yesterday!),
    vs_last_week: change(today!, lastWeek!),
    store_id: r.storeId,
  };
}

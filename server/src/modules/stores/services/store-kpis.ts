/** Live figures for the owner's store screens. Each figure is one grouped query, whatever the number of stores. */
import { fromCents } from '@duka/shared';
import type { ListStoresQuery, StoreDay, StoreList, StoreStats } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { orgTimezone, toStore } from '../../tenancy/tenancy.exports.js';
import { countStaff, countStores, listStores, salesByDay, salesByStore, staffOnShiftByStore, type StoreFilter } from '../stores.queries.js';
import { lastLocalDays, todayRange } from '../../../lib/time.js';
import { shiftsOnDuty } from './local-day.js';
import { requireOrgStore } from './read-store.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';

function filterOf(status: ListStoresQuery['status']): StoreFilter {
  if (status === 'active') return { isActive: true };
  if (status === 'inactive') return { isActive: false };
  return status ? { status } : {};
}

export async function listStoresWithKpis(ctx: AuthedContext, query: ListStoresQuery): Promise<StoreList> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const now = ctx.clock.now();
  const tz = await orgTimezone(ctx.db, orgId);
  const { from, to } = todayRange(now, tz);
  const [stores, sales, onDuty] = await Promise.all([
    listStores(ctx.db, orgId, filterOf(query.status)),
    salesByStore(ctx.db, orgId, from, to),
    staffOnShiftByStore(ctx.db, orgId, shiftsOnDuty(now, tz)),
  ]);
  const items = stores.map((row) => {
    const s = sales.get(row.id);
    return {
      ...toStore(row),
      today_sales: fromCents(s?.cents ?? 0),
      today_transactions: s?.count ?? 0,
      staff_on_duty: onDuty.get(row.id) ?? 0,
    };
  });
  return { items, count: items.length };
}

export async function storeStats(ctx: AuthedContext): Promise<StoreStats> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const tz = await orgTimezone(ctx.db, orgId);
  const { from, to } = todayRange(ctx.clock.now(), tz);
  const [stores, sales, staff] = await Promise.all([
    countStores(ctx.db, orgId),
    salesByStore(ctx.db, orgId, from, to),
    countStaff(ctx.db, orgId),
  ]);
  const cents = [...sales.values()].reduce((sum, s) => sum + s.cents, 0);
  return { total_stores: stores.total, active_stores: stores.active, total_sales_today: fromCents(cents), total_staff: staff };
}

/** The last 7 local days, today included, oldest first; a day without sales is a row of zeros. */
export async function storeWeek(ctx: AuthedContext, id: string): Promise<StoreDay[]> {
  requireRole(ctx, 'owner');
  const store = await requireOrgStore(ctx, id);
  const tz = await orgTimezone(ctx.db, store.org_id);
  const { dates, bounds } = lastLocalDays(ctx.clock.now(), tz, 7);
  const byDay = await salesByDay(ctx.db, store.org_id, store.id, bounds);
  return dates.map((date, i) => {
    const d = byDay.get(i);
    return { date, sales: fromCents(d?.cents ?? 0), transactions: d?.count ?? 0 };
  });
}

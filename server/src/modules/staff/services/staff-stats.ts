import { fromCents } from '@duka/shared';
import type { StaffKpis, StaffStats } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { countActiveInRange, countActiveStaff, staffSalesCents, statsByCashier, ZERO_STATS } from '../staff.queries.js';
import { localDayRange } from '../../../lib/time.js';
import { orgTimezoneOf, requireStaffMember, today } from './staff-context.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';

export async function getStaffStats(ctx: AuthedContext, id: string): Promise<StaffStats> {
  requireRole(ctx, 'owner');
  const member = await requireStaffMember(ctx, id);
  const stats = await statsByCashier(ctx.db, requireOrg(ctx), [member.id]);
  return stats.get(member.id) ?? ZERO_STATS;
}

/** Today's figures for the staff page; "today" is the organisation's local day. */
export async function getStaffKpis(ctx: AuthedContext): Promise<StaffKpis> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const tz = await orgTimezoneOf(ctx);
  const range = localDayRange(today(ctx, tz), tz);
  const [totalStaff, activeToday, salesCents] = await Promise.all([
    countActiveStaff(ctx.db, orgId),
    countActiveInRange(ctx.db, orgId, range),
    staffSalesCents(ctx.db, orgId, range),
  ]);
  return {
    total_staff: totalStaff,
    active_today: activeToday,
    total_sales_today: fromCents(salesCents),
    average_sales_per_staff: activeToday ? fromCents(Math.round(salesCents / activeToday)) : 0,
  };
}

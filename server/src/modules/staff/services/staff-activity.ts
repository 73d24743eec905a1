import type { StaffActivity } from '@duka/shared';
import { iso } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { localTime } from '../../../lib/time.js';
import { activityRows } from '../staff.queries.js';
import { localDayRange } from '../../../lib/time.js';
import { orgTimezoneOf, requireStaffMember, today } from './staff-context.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';

/** The member's day from the audit trail: what they did and what was changed on their record. */
export async function getStaffActivity(ctx: AuthedContext, id: string, date?: string): Promise<StaffActivity> {
  requireRole(ctx, 'owner');
  const member = await requireStaffMember(ctx, id);
  const tz = await orgTimezoneOf(ctx);
  const day = date ?? today(ctx, tz);
  const rows = await activityRows(ctx.db, requireOrg(ctx), member.id, localDayRange(day, tz));
  return {
    date: day,
    items: rows.map((r) => ({ type: r.action, time: localTime(r.created_at, tz), description: r.description, at: iso(r.created_at) })),
  };
}

import { pageMeta } from '@duka/shared';
import type { ListStaffQuery, PageMeta, StaffList, StaffMember } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { toUser } from '../../tenancy/tenancy.exports.js';
import { listStaffRows, statsByCashier, ZERO_STATS } from '../staff.queries.js';
import { requireStaffMember } from './staff-context.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';

export async function listStaff(ctx: AuthedContext, q: ListStaffQuery): Promise<{ data: StaffList; meta: PageMeta }> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const { rows, total } = await listStaffRows(ctx.db, ctx.dialect, orgId, q);
  let items: StaffMember[] = rows.map(toUser);
  if (q.include_stats) {
    const stats = await statsByCashier(
      ctx.db,
      orgId,
      rows.map((r) => r.id),
    );
    items = items.map((u) => ({ ...u, stats: stats.get(u.id) ?? ZERO_STATS }));
  }
  return {
    data: { items, total },
    meta: pageMeta(q.page, q.size, total),
  };
}

export async function getStaff(ctx: AuthedContext, id: string): Promise<StaffMember> {
  requireRole(ctx, 'owner');
  return toUser(await requireStaffMember(ctx, id));
}

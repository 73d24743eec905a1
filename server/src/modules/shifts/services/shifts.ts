/**
 * Reading shifts. The owner and managers see every till's shifts of the active store; a cashier
 * sees their own (another's answers 403, another store's or organisation's 404).
 */
import type { ListShiftsQuery, PageMeta, TillShift, TillShiftWithReport } from '@duka/shared';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { addDays, startOfLocalDay } from '../../../lib/time.js';
import { orgTimezone, overseesShifts } from '../../tenancy/tenancy.exports.js';
import { findStoreShift, openShiftOf, storeShifts, toShift } from '../shifts.queries.js';
import { withReport } from './shift-report.js';
import { countedPage } from '../../../db/page.js';

export async function getShift(ctx: AuthedContext, id: string): Promise<TillShiftWithReport> {
  const row = await findStoreShift(ctx.db, requireStore(ctx), id);
  if (!row) throw new NotFoundError('shift');
  if (row.cashier_id !== ctx.actor.userId && !overseesShifts(ctx.actor))
    throw new ForbiddenError("only the shift's cashier, a manager or the owner can see this shift");
  return withReport(ctx.db, row);
}

/** The caller's open shift in the active store, with its X report; null when none is open. */
export async function currentShift(ctx: AuthedContext): Promise<TillShiftWithReport | null> {
  const row = await openShiftOf(ctx.db, requireStore(ctx), ctx.actor.userId);
  return row ? withReport(ctx.db, row) : null;
}

export async function listShifts(ctx: AuthedContext, q: ListShiftsQuery): Promise<{ items: TillShift[]; meta: PageMeta }> {
  const scope = requireStore(ctx);
  if (q.cashier_id && q.cashier_id !== ctx.actor.userId && !overseesShifts(ctx.actor))
    throw new ForbiddenError("only a manager or the owner can see other cashiers' shifts");
  const cashier = overseesShifts(ctx.actor) ? q.cashier_id : ctx.actor.userId;
  if (q.date_from && q.date_to && q.date_to < q.date_from) throw new ValidationError('date_to', 'must not be before date_from');
  const tz = q.date_from || q.date_to ? await orgTimezone(ctx.db, scope.orgId) : '';
  const base = storeShifts(ctx.db, scope)
    .$if(!!q.status, (qb) => qb.where('status', '=', q.status!))
    .$if(!!cashier, (qb) => qb.where('cashier_id', '=', cashier!))
    .$if(!!q.date_from, (qb) => qb.where('opened_at', '>=', startOfLocalDay(q.date_from!, tz)))
    .$if(!!q.date_to, (qb) => qb.where('opened_at', '<', startOfLocalDay(addDays(q.date_to!, 1), tz)));
  const { rows, meta } = await countedPage(base, base.selectAll().orderBy('opened_at', 'desc').orderBy('id', 'desc'), q);
  return { items: rows.map(toShift), meta };
}

/** What every staff verb needs first: the caller's organisation, the member, and its calendar. */
import type { UserRow } from '../../accounts/accounts.table.js';
import { findOrganisation } from '../../accounts/accounts.queries.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { localDate, startOfLocalDay } from '../../../lib/time.js';
import { findStaffMember, type TimeRange } from '../staff.queries.js';

export const DEFAULT_TIMEZONE = 'Africa/Dar_es_Salaam';

export function orgIdOf(ctx: AuthedContext): string {
  if (!ctx.actor.orgId) throw new NotFoundError('organisation');
  return ctx.actor.orgId;
}

/** The staff member or manager `id` of the caller's organisation, else 404. */
export async function requireStaffMember(ctx: AuthedContext, id: string): Promise<UserRow> {
  const row = await findStaffMember(ctx.db, orgIdOf(ctx), id);
  if (!row) throw new NotFoundError('staff member');
  return row;
}

export async function orgTimezone(ctx: AuthedContext): Promise<string> {
  const org = await findOrganisation(ctx.db, orgIdOf(ctx));
  return org?.timezone || DEFAULT_TIMEZONE;
}

/** `YYYY-MM-DD` plus one calendar day. */
export function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** The instants of local day `date` in `tz`, end exclusive. */
export function localDayRange(date: string, tz: string): TimeRange {
  return { from: startOfLocalDay(date, tz), to: startOfLocalDay(nextDate(date), tz) };
}

export const today = (ctx: AuthedContext, tz: string) => localDate(ctx.clock.now(), tz);

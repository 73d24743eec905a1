/** What every staff verb needs first: the caller's organisation, the member, and its calendar. */
import type { UserRow } from '../../../db/tables/accounts.table.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import type { AuthedContext } from '../../../lib/context.js';
import { requireOrg } from '../../../lib/auth/authorize.js';
import { NotFoundError } from '../../../lib/errors.js';
import { localDate } from '../../../lib/time.js';
import { findStaffMember } from '../staff.queries.js';

/** The staff member or manager `id` of the caller's organisation, else 404. */
export async function requireStaffMember(ctx: AuthedContext, id: string): Promise<UserRow> {
  const row = await findStaffMember(ctx.db, requireOrg(ctx), id);
  if (!row) throw new NotFoundError('staff member');
  return row;
}

export const orgTimezoneOf = (ctx: AuthedContext) => orgTimezone(ctx.db, requireOrg(ctx));

export const today = (ctx: AuthedContext, tz: string) => localDate(ctx.clock.now(), tz);

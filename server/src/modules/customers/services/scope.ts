/** What every customer and credit verb needs first: the caller's organisation, a customer of it, and its today. */
import type { AuthedContext } from '../../../lib/context.js';
import { requireOrg } from '../../../lib/auth/authorize.js';
import { NotFoundError } from '../../../lib/errors.js';
import { localDate } from '../../../lib/time.js';
import { orgTimezone } from '../../tenancy/tenancy.exports.js';
import { type CustomerWithBalanceRow, findCustomerWithBalance } from '../customers.queries.js';

/** Customer `id` of the caller's organisation with its outstanding balance; another organisation's is not found. */
export async function requireCustomer(ctx: AuthedContext, id: string): Promise<CustomerWithBalanceRow> {
  const row = await findCustomerWithBalance(ctx.db, requireOrg(ctx), id);
  if (!row) throw new NotFoundError('customer');
  return row;
}

/** Today (`YYYY-MM-DD`) in the organisation's time zone: a tab is overdue once its due date is before it. */
export async function orgToday(ctx: AuthedContext, orgId: string): Promise<string> {
  return localDate(ctx.clock.now(), await orgTimezone(ctx.db, orgId));
}

/** What every customer and credit verb needs first: the caller's organisation, a customer of it, and its today. */
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { localDate } from '../../../lib/time.js';
import { orgTimezone } from '../../accounts/accounts.queries.js';
import { type CustomerWithBalanceRow, findCustomerWithBalance } from '../customers.queries.js';

export function orgIdOf(ctx: AuthedContext): string {
  if (!ctx.actor.orgId) throw new NotFoundError('organisation');
  return ctx.actor.orgId;
}

/** The caller's active store, where money taken is booked. */
export function storeIdOf(ctx: AuthedContext): string {
  if (!ctx.actor.storeId) throw new InvalidStateError('your session has no active store; switch to a store first');
  return ctx.actor.storeId;
}

/** Customer `id` of the caller's organisation with its outstanding balance; another organisation's is not found. */
export async function requireCustomer(ctx: AuthedContext, id: string): Promise<CustomerWithBalanceRow> {
  const row = await findCustomerWithBalance(ctx.db, orgIdOf(ctx), id);
  if (!row) throw new NotFoundError('customer');
  return row;
}

/** Today (`YYYY-MM-DD`) in the organisation's time zone: a tab is overdue once its due date is before it. */
export async function orgToday(ctx: AuthedContext, orgId: string): Promise<string> {
  return localDate(ctx.clock.now(), await orgTimezone(ctx.db, orgId));
}

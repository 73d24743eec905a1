/** GET /customers/credits: who owes the shop, most overdue first. */
import { fromCents } from '@duka/shared';
import type { CustomerCreditsQuery, CustomerWithCredit } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { customerCreditRows, toCustomer } from '../customers.queries.js';
import { orgToday } from './scope.js';
import { requireOrg } from '../../../lib/auth/authorize.js';

/** Customers with a balance, oldest due date first; `overdue` keeps those with (true) or without (false) an overdue tab. */
export async function listCustomerCredits(ctx: AuthedContext, q: CustomerCreditsQuery): Promise<CustomerWithCredit[]> {
  const orgId = requireOrg(ctx);
  const rows = await customerCreditRows(ctx.db, orgId, await orgToday(ctx, orgId), q.overdue);
  return rows.map((row) => ({
    ...toCustomer(row),
    total_outstanding: fromCents(Number(row.outstanding)),
    open_tabs: Number(row.open_tabs),
    overdue_count: Number(row.overdue_count),
    oldest_due_date: row.oldest_due_date,
  }));
}

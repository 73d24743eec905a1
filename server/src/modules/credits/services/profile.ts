/** GET /credits/customers/:customer_id: everything about one customer's credit. */
import { fromCents } from '@duka/shared';
import type { CreditProfile } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { toCustomer, orgToday, requireCustomer } from '../../customers/customers.exports.js';
import {
  customerNotes,
  customerPayments,
  isOverdue,
  messagesWithDelivery,
  tabsWithNames,
  toCreditMessage,
  toCreditNote,
  toCreditTab,
  withAllocations,
} from '../credits.queries.js';
import { requireOrg } from '../../../lib/auth/authorize.js';

export async function getCreditProfile(ctx: AuthedContext, customerId: string): Promise<CreditProfile> {
  const orgId = requireOrg(ctx);
  const customer = await requireCustomer(ctx, customerId);
  const today = await orgToday(ctx, orgId);
  const [tabs, payments, messages, notes] = await Promise.all([
    tabsWithNames(ctx.db, orgId)
      .where('credit_tabs.customer_id', '=', customerId)
      .orderBy('credit_tabs.created_at', 'desc')
      .orderBy('credit_tabs.id', 'desc')
      .execute(),
    customerPayments(ctx.db, orgId, customerId),
    messagesWithDelivery(ctx.db, orgId)
      .where('credit_messages.customer_id', '=', customerId)
      .orderBy('credit_messages.created_at', 'desc')
      .orderBy('credit_messages.id', 'desc')
      .execute(),
    customerNotes(ctx.db, orgId, customerId),
  ]);
  return {
    customer: toCustomer(customer),
    tabs: tabs.map((t) => toCreditTab(t, today)),
    payments: await withAllocations(ctx.db, orgId, payments),
    messages: messages.map(toCreditMessage),
    notes: notes.map(toCreditNote),
    total_outstanding: fromCents(Number(customer.outstanding ?? 0)),
    overdue_count: tabs.filter((t) => isOverdue(t, today)).length,
  };
}

/**
 * Erasing a customer at their request (Personal Data Protection Act 2022): the person goes, the
 * records the law asks the shop to keep stay. Their customer record keeps its id, figures and
 * credit but is renamed `Erased customer`, without phone, email or notes, and deactivated; their
 * sales keep amounts, tax, dates and receipt numbers but lose the name, phone, TIN and paying
 * wallet copied onto them; their credit keeps every amount; messages sent to them lose recipient
 * and text; every other text of the organisation that names them is rewritten (texts.ts). One
 * transaction; the tills' copies follow through the change log like any edit of a customer.
 * Erasing again finds nothing left and changes nothing.
 */
import type { CustomerErasure } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireOrg } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { findCustomerWithBalance, toCustomer } from '../customers.queries.js';
import { requireCustomer } from '../services/scope.js';
import { ERASED_CONTACT, identityOf, isEmpty, namesInAudit, needlesOf } from './identity.js';
import { anonymiseCustomer, anonymiseSales, anyOf, customerRows, personSales, receivedFrom, requestedOf } from './personal-data.queries.js';
import { scrubTexts } from './texts.js';

export async function eraseCustomer(ctx: AuthedContext, customerId: string): Promise<CustomerErasure> {
  const orgId = requireOrg(ctx);
  return withTransaction(ctx, async (tx) => {
    const customer = await requireCustomer(tx, customerId);
    const sales = await personSales(tx.db, orgId, customerId, identityOf({ phones: [customer.phone] }).phones)
      .select(['id', 'store_id', 'customer_name', 'customer_phone', 'customer_tin', 'payment_phone'])
      .execute();
    const saleIds = sales.map((s) => s.id);
    const named = await tx.db
      .selectFrom('audit_log')
      .select(['action', 'description'])
      .where('org_id', '=', orgId)
      .where('entity', '=', 'customer')
      .where('entity_id', '=', customerId)
      .execute();
    const seen = identityOf({
      names: [customer.name, ...sales.map((s) => s.customer_name), ...namesInAudit(named)],
      phones: [customer.phone, ...sales.flatMap((s) => [s.customer_phone, s.payment_phone])],
      emails: [customer.email],
      tins: sales.map((s) => s.customer_tin),
    });
    const [received, requested] = await Promise.all([
      receivedFrom(tx.db, orgId, saleIds, seen.phones).select(['id', 'payer_phone']).execute(),
      requestedOf(tx.db, orgId, saleIds, seen.phones).select(['id', 'phone']).execute(),
    ]);
    const who = identityOf({ ...seen, phones: [...seen.phones, ...received.map((r) => r.payer_phone), ...requested.map((r) => r.phone)] });
    const alreadyErased = isEmpty(who) && customer.notes === null && customer.is_active === 0;
    const now = tx.clock.now();
    const receivedIds = received.map((r) => r.id);
    const requestedIds = requested.map((r) => r.id);

    // Messages to them go whole, found by recipient before the texts are rewritten.
    await tx.db
      .updateTable('outbox')
      .set({ recipient: ERASED_CONTACT, body: ERASED_CONTACT, subject: null })
      .where('org_id', '=', orgId)
      .where((eb) => anyOf(eb, 'recipient', [...who.phones, ...who.emails]))
      .execute();
    await tx.db
      .updateTable('outbox')
      .set({ status: 'rejected', last_error: 'recipient erased', next_attempt_at: null })
      .where('org_id', '=', orgId)
      .where('recipient', '=', ERASED_CONTACT)
      .where('status', 'in', ['pending', 'failed'])
      .execute();
    await scrubTexts(tx, orgId, needlesOf(who));
    await tx.db
      .updateTable('received_payments')
      .set({ payer_phone: null })
      .where('org_id', '=', orgId)
      .where((eb) => anyOf(eb, 'id', receivedIds))
      .execute();
    await tx.db
      .updateTable('payment_requests')
      .set({ phone: ERASED_CONTACT })
      .where('org_id', '=', orgId)
      .where((eb) => anyOf(eb, 'id', requestedIds))
      .execute();
    await tx.db
      .updateTable('credit_messages')
      .set({ body: ERASED_CONTACT })
      .where('org_id', '=', orgId)
      .where('customer_id', '=', customerId)
      .execute();
    await tx.db
      .updateTable('credit_notes')
      .set({ body: ERASED_CONTACT })
      .where('org_id', '=', orgId)
      .where('customer_id', '=', customerId)
      .execute();
    await anonymiseSales(tx.db, orgId, saleIds);
    await anonymiseCustomer(tx.db, orgId, customerId, alreadyErased ? null : now);

    const tabs = await customerRows(tx.db, 'credit_tabs', orgId, customerId);
    const payments = await customerRows(tx.db, 'credit_payments', orgId, customerId);
    if (!alreadyErased) {
      noteChange(tx, orgId, { entity: 'customer', id: customerId });
      for (const s of sales) noteChange(tx, orgId, { entity: 'transaction', id: s.id, storeId: s.store_id });
      for (const tab of tabs) noteChange(tx, orgId, { entity: 'credit_tab', id: tab.id, storeId: tab.store_id });
    }
    await recordAudit(tx, {
      action: 'customer.erase',
      description: alreadyErased ? 'Asked to erase a customer already erased: nothing was left' : "Erased a customer's personal data",
      entity: 'customer',
      entityId: customerId,
    });
    return {
      customer: toCustomer((await findCustomerWithBalance(tx.db, orgId, customerId))!),
      already_erased: alreadyErased,
      kept: { sales: sales.length, credit_tabs: tabs.length, credit_payments: payments.length },
    };
  });
}

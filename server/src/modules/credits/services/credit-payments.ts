/** Money a customer brings in against what they owe, spread over their oldest tabs first. */
import { allocatePayment, type CreditPayment, newId, type RecordCreditPaymentInput, toCents } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { forUpdate } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { BusinessRuleError } from '../../../lib/errors.js';
import { requireCustomer } from '../../customers/customers.exports.js';
import { withIdempotency } from '../../../lib/idempotency.js';
import { balanceCents, insertCreditPayment, owingTabsOldestFirst, updateTabPaid, withAllocations } from '../credits.queries.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import { bookerOf, type NamedShift, shiftFor } from '../../tenancy/tenancy.exports.js';

/**
 * Spread by the shared `allocatePayment` (oldest tab first; more than is owed: 422 OVERPAYMENT,
 * nothing written); each tab moves open → partially_paid → settled.
 *
 * On Postgres the owing tabs are read FOR UPDATE, so a second payment for the same customer waits
 * for the first to commit and then sees the balances it left: two payments that together exceed
 * the debt can never both be accepted. (SQLite has a single writer.)
 */
export async function recordCreditPayment(
  ctx: AuthedContext,
  customerId: string,
  input: RecordCreditPaymentInput,
  opts: NamedShift = {},
): Promise<CreditPayment> {
  const { orgId, storeId } = requireStore(ctx);
  const customer = await requireCustomer(ctx, customerId);
  const amount = toCents(input.amount);
  return withTransaction(ctx, async (tx) => {
    const tabs = await forUpdate(tx.dialect, owingTabsOldestFirst(tx.db, orgId, customerId)).execute();
    const found = allocatePayment({
      amount,
      customer_name: customer.name,
      owed: tabs.reduce((sum, tab) => sum + balanceCents(tab), 0),
      tabs: tabs.map((tab) => ({ id: tab.id, opened_at: Number(tab.created_at), balance: balanceCents(tab) })),
    });
    if (found.breach) throw new BusinessRuleError(found.breach.message, found.breach.code, found.breach.field);
    const now = tx.clock.now();
    const paymentId = newId();
    await insertCreditPayment(tx.db, {
      id: paymentId,
      org_id: orgId,
      store_id: storeId,
      customer_id: customerId,
      amount,
      method: input.method,
      reference: input.reference ?? null,
      note: input.note ?? null,
      received_by: tx.actor!.userId,
      shift_id: await shiftFor(tx.db, { orgId, storeId }, bookerOf(tx.actor!, opts.deviceId), {
        named: opts.shiftId,
        conflicts: opts.conflicts,
      }),
      created_at: now,
    });
    const byId = new Map(tabs.map((tab) => [tab.id, tab]));
    for (const a of found.allocations) {
      const tab = byId.get(a.tab_id)!;
      await updateTabPaid(
        tx.db,
        orgId,
        tab.id,
        {
          paid_amount: Number(tab.paid_amount) + a.amount,
          status: a.settled ? 'settled' : 'partially_paid',
          settled_at: a.settled ? now : null,
        },
        now,
      );
      await tx.db
        .insertInto('credit_allocations')
        .values({ org_id: orgId, payment_id: paymentId, tab_id: tab.id, amount: a.amount })
        .execute();
      noteChange(tx, orgId, { entity: 'credit_tab', id: tab.id, storeId: tab.store_id });
    }
    noteChange(tx, orgId, { entity: 'customer', id: customerId });
    await recordAudit(tx, {
      action: 'credit.payment',
      description: `Received TZS ${input.amount} (${input.method}) from ${customer.name} against credit`,
      entity: 'customer',
      entityId: customerId,
    });
    const row = await tx.db
      .selectFrom('credit_payments')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    return (await withAllocations(tx.db, orgId, [row]))[0]!;
  });
}

/**
 * POST …/payments with an optional Idempotency-Key (design §3): a till retrying after a timeout
 * gets the first answer back instead of paying twice.
 */
export async function recordCreditPaymentOnce(
  ctx: AuthedContext,
  customerId: string,
  input: RecordCreditPaymentInput,
  key: string | undefined,
): Promise<{ payment: CreditPayment; replayed: boolean }> {
  const route = `POST /credits/customers/${customerId}/payments`;
  const answer = await withIdempotency(ctx, { key, route, body: input }, async (tx) => ({
    status: 200,
    body: await recordCreditPayment(tx, customerId, input),
  }));
  return { payment: answer.body as CreditPayment, replayed: answer.replayed };
}

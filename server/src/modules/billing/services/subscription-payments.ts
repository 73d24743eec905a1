/**
 * Subscription payments: the shop paying Duka's invoices by mobile money. The push starts after
 * the invoice and payment rows commit; a result (the provider's callback, or its answer when the
 * job asks) is applied idempotently: every step is a conditional update, so a repeated or late
 * result never pays twice and never applies a plan change twice; an amount that differs from the
 * invoice is recorded, not credited.
 */
import { formatTzs, fromCents, periodEndOf, toCents } from '@duka/shared';
import { crossOrg } from '../../../db/tenant-scope-check.js';
import { afterCommit, withTransaction } from '../../../db/transaction.js';
import type { ServiceContext, TxContext } from '../../../lib/context.js';
import { CallbackRejected, type PaymentCallbackInput, type PaymentResult, PaymentRejected } from '../../../mobile-money/provider.js';
import { activateSubscription, findPlan, type InvoiceRow, type PaymentRow } from '../billing.queries.js';
import { markInvoicePaid, markPaymentMismatch } from '../invoices.queries.js';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../../../lib/errors.js';
import { recordBillingEvent } from './history.js';

/**
 * Queue the push of a pending payment for after the commit (never inside the transaction). `outer`
 * is the context outside the transaction: the push's own writes need a live connection.
 */
export function pushAfterCommit(tx: TxContext, outer: ServiceContext, payment: PaymentRow, description: string): void {
  afterCommit(tx, () => startPush(outer, payment, description));
}

async function startPush(ctx: ServiceContext, payment: PaymentRow, description: string): Promise<void> {
  try {
    const started = await ctx.subscriptionPayments.startPush({
      reference: payment.id,
      amountTzs: fromCents(Number(payment.amount)),
      phone: payment.phone.replace(/^\+/, ''),
      network: payment.network as never,
      description,
    });
    if (started.providerRef)
      await ctx.db
        .updateTable('payments')
        .set({ provider_ref: started.providerRef })
        .where('org_id', '=', payment.org_id)
        .where('id', '=', payment.id)
        .execute();
  } catch (err) {
    // A network error or timeout leaves the payment pending: the job asks the provider later.
    if (!(err instanceof PaymentRejected)) {
      ctx.log.warn({ err, payment_id: payment.id }, 'payment push did not reach the provider');
      return;
    }
    await withTransaction(ctx, async (tx) => {
      const failed = await tx.db
        .updateTable('payments')
        .set({ status: 'failed', detail: err.reason.slice(0, 500), updated_at: tx.clock.now() })
        .where('org_id', '=', payment.org_id)
        .where('id', '=', payment.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(failed.numUpdatedRows) > 0)
        await recordBillingEvent(tx, {
          orgId: payment.org_id,
          kind: 'payment.failed',
          detail: `push rejected: ${err.reason}`,
          invoiceId: payment.invoice_id,
          paymentId: payment.id,
        });
    });
  }
}

/** POST /subscriptions/callbacks/:provider: authenticated only by the provider's parseCallback. */
export async function receiveCallback(ctx: ServiceContext, provider: string, input: PaymentCallbackInput): Promise<{ received: true }> {
  if (provider !== ctx.subscriptionPayments.name) throw new NotFoundError('payment provider');
  let result: PaymentResult;
  try {
    result = ctx.subscriptionPayments.parseCallback(input);
  } catch (err) {
    if (err instanceof CallbackRejected) throw new UnauthenticatedError(`callback rejected: ${err.message}`);
    // Whatever else a driver trips on is a body it cannot read: the sender's fault, never a 500.
    throw new ValidationError('body', `is not a ${provider} payment callback`);
  }
  await applyPaymentResult(ctx, result);
  return { received: true };
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/**
 * Apply what the provider says happened to a payment; safe to call any number of times. `orgId`: the
 * payment's organisation when the caller knows it (the job); a callback names only the payment.
 */
export async function applyPaymentResult(ctx: ServiceContext, result: PaymentResult, orgId?: string): Promise<void> {
  if (!isUuid(result.reference)) return;
  await withTransaction(ctx, async (tx) => {
    const lookup = tx.db.selectFrom('payments').selectAll().where('id', '=', result.reference);
    const payment = await (orgId ? lookup.where('org_id', '=', orgId) : lookup.modifyEnd(crossOrg('provider callback'))).executeTakeFirst();
    if (!payment) {
      ctx.log.warn({ reference: result.reference }, 'payment result for an unknown payment');
      return;
    }
    const now = tx.clock.now();
    const ref = result.providerRef ?? payment.provider_ref;
    const ev = { orgId: payment.org_id, invoiceId: payment.invoice_id, paymentId: payment.id };
    if (result.outcome === 'pending') {
      await tx.db
        .updateTable('payments')
        .set({ detail: result.detail || payment.detail, checked_at: now })
        .where('org_id', '=', payment.org_id)
        .where('id', '=', payment.id)
        .where('status', '=', 'pending')
        .execute();
      return;
    }
    if (result.outcome === 'failed') {
      const done = await tx.db
        .updateTable('payments')
        .set({ status: 'failed', detail: result.detail.slice(0, 500), provider_ref: ref, updated_at: now })
        .where('org_id', '=', payment.org_id)
        .where('id', '=', payment.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) > 0)
        await recordBillingEvent(tx, { ...ev, kind: 'payment.failed', detail: result.detail || 'payment failed' });
      return;
    }
    const reported = result.amountTzs === null ? null : toCents(result.amountTzs);
    if (reported !== null && reported !== Number(payment.amount)) {
      const done = await markPaymentMismatch(
        tx.db,
        payment,
        {
          reported,
          providerRef: ref,
          detail: `provider reported ${formatTzs(reported)}, invoice is ${formatTzs(Number(payment.amount))}`,
        },
        now,
      );
      if (Number(done.numUpdatedRows) > 0)
        await recordBillingEvent(tx, {
          ...ev,
          kind: 'payment.mismatch',
          detail: `amount differs: reported ${formatTzs(reported)}; not credited`,
        });
      return;
    }
    // A payment the job saw as failed may still be paid later: the provider's word wins.
    const paid = await tx.db
      .updateTable('payments')
      .set({ status: 'paid', reported_amount: reported, provider_ref: ref, detail: result.detail || null, updated_at: now })
      .where('org_id', '=', payment.org_id)
      .where('id', '=', payment.id)
      .where('status', 'in', ['pending', 'failed'])
      .executeTakeFirst();
    if (Number(paid.numUpdatedRows) === 0) return;
    await recordBillingEvent(tx, {
      ...ev,
      kind: 'payment.paid',
      detail: `paid ${formatTzs(Number(payment.amount))} from ${payment.phone}`,
    });
    const invoice = await markInvoicePaid(tx.db, payment, now);
    if (!invoice) {
      await recordBillingEvent(tx, {
        ...ev,
        kind: 'payment.unapplied',
        detail: 'the invoice was already paid or void: this payment is owed back',
      });
      return;
    }
    await applyInvoice(tx, invoice, payment);
  });
}

/** A paid invoice takes effect: an upgrade now in the running period, a new or renewed period from its start. */
async function applyInvoice(tx: TxContext, invoice: InvoiceRow, payment: PaymentRow): Promise<void> {
  const now = tx.clock.now();
  const [sub, plan] = await Promise.all([
    tx.db.selectFrom('subscriptions').selectAll().where('org_id', '=', invoice.org_id).executeTakeFirstOrThrow(),
    findPlan(tx.db, invoice.plan_id),
  ]);
  const before = await findPlan(tx.db, sub.plan_id);
  const period =
    invoice.kind === 'upgrade'
      ? { period_start: sub.period_start, period_end: sub.period_end }
      : invoice.kind === 'renewal'
        ? { period_start: invoice.period_start, period_end: invoice.period_end }
        : { period_start: now, period_end: periodEndOf(now, invoice.billing_cycle as 'monthly' | 'yearly') };
  await activateSubscription(tx.db, invoice, payment, period, now);
  await recordBillingEvent(tx, {
    orgId: invoice.org_id,
    kind: 'subscription.changed',
    fromPlan: before?.code ?? null,
    toPlan: plan?.code ?? null,
    fromStatus: sub.status,
    toStatus: 'active',
    invoiceId: invoice.id,
    paymentId: payment.id,
    detail: `${invoice.kind} invoice ${invoice.number} paid: ${plan?.code} ${invoice.billing_cycle}`,
  });
}

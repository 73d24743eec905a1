/**
 * Checkout: an owner chooses a plan and cycle and the phone that pays. An upgrade is charged the
 * prorated rest of the running period and applies when paid; a move from free (or out of
 * past_due/suspended, or to another cycle) starts a new period when paid; a downgrade is scheduled
 * for the period end and charges nothing now. Checking out the plan already running undoes a
 * cancellation or a scheduled downgrade. Invoice and payment are written in one transaction; the
 * push starts after commit.
 */
import { type CheckoutInput, type CheckoutResult, formatTzs, monthlyEquivalent, newId, prorateCharge } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { normalisePhone } from '../../../lib/phone.js';
import { FREE_PLAN, findPlanByCode, type InvoiceRow, type PaymentRow, priceOf, toInvoice, toPayment } from '../billing.queries.js';
import { findOpenRenewal } from '../invoices.queries.js';
import { recordBillingEvent } from './history.js';
import { planInForce } from './limits.js';
import { pushAfterCommit } from './subscription-payments.js';

/** `INV-YYYYMMDD-XXXXXXXX`: readable on a phone, unique without a shared counter (the id's random tail; its head is a time). */
export const invoiceNumber = (id: string, now: number) =>
  `INV-${new Date(now).toISOString().slice(0, 10).replaceAll('-', '')}-${id.slice(-8).toUpperCase()}`;

export async function checkout(ctx: AuthedContext, input: CheckoutInput): Promise<CheckoutResult> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const phone = normalisePhone(input.phone);
  const plan = await findPlanByCode(ctx.db, input.plan_code);
  if (!plan) throw new NotFoundError('plan');
  if (plan.status !== 'active') throw new InvalidStateError(`the ${plan.code} plan is retired; choose another plan`);
  if (plan.code === FREE_PLAN)
    throw new InvalidStateError('to go back to the free plan, cancel your subscription: it ends at the period end');
  const cycle = input.billing_cycle;
  const now = ctx.clock.now();
  const { subscription: sub, plan: current } = await planInForce(ctx.db, orgId);
  const running = sub?.status === 'active' && sub.period_end !== null && Number(sub.period_end) > now && Number(sub.price) > 0;

  if (running && sub && current.id === plan.id && sub.billing_cycle === cycle) {
    if (!sub.cancel_at_period_end && !sub.next_plan_id) throw new InvalidStateError(`you are already on the ${plan.code} plan`);
    await withTransaction(ctx, async (tx) => {
      await tx.db
        .updateTable('subscriptions')
        .set({ cancel_at_period_end: 0, next_plan_id: null, next_billing_cycle: null, updated_at: now })
        .where('org_id', '=', orgId)
        .execute();
      await recordBillingEvent(tx, {
        orgId,
        kind: 'subscription.resumed',
        detail: `stays on ${plan.code} ${cycle}`,
        fromPlan: current.code,
        toPlan: plan.code,
      });
    });
    return { change: 'resumed', invoice: null, payment: null };
  }

  const price = priceOf(plan, cycle);
  const runningMonthly = running && sub ? monthlyEquivalent(sub.billing_cycle as 'monthly' | 'yearly', Number(sub.price)) : 0;
  if (running && sub && monthlyEquivalent(cycle, price) <= runningMonthly) {
    await withTransaction(ctx, async (tx) => {
      await tx.db
        .updateTable('subscriptions')
        .set({ next_plan_id: plan.id, next_billing_cycle: cycle, cancel_at_period_end: 0, updated_at: now })
        .where('org_id', '=', orgId)
        .execute();
      await recordBillingEvent(tx, {
        orgId,
        kind: 'subscription.downgrade_scheduled',
        detail: `to ${plan.code} ${cycle} at the period end`,
        fromPlan: current.code,
        toPlan: plan.code,
      });
    });
    return { change: 'scheduled', invoice: null, payment: null };
  }

  const kind = running && sub!.billing_cycle === cycle ? 'upgrade' : 'new';
  const amount = running
    ? prorateCharge({
        oldPriceCents: Number(sub!.price),
        newPriceCents: price,
        periodStart: Number(sub!.period_start),
        periodEnd: Number(sub!.period_end),
        now,
        samePeriod: kind === 'upgrade',
      })
    : price;
  const { invoice, payment } = await withTransaction(ctx, async (tx) => {
    // Past due or suspended and choosing the same plan and cycle: pay the open renewal (its period
    // follows the last paid one). Anything else supersedes the open invoices: paying one of them
    // later is recorded as owed back, not applied.
    const renewal = await findOpenRenewal(tx.db, orgId, plan.id, cycle);
    let invoice: InvoiceRow;
    if (renewal && sub && sub.status !== 'active') invoice = renewal;
    else {
      await tx.db.updateTable('invoices').set({ status: 'void' }).where('org_id', '=', orgId).where('status', '=', 'open').execute();
      invoice = {
        id: newId(),
        org_id: orgId,
        number: '',
        kind,
        plan_id: plan.id,
        billing_cycle: cycle,
        amount,
        plan_price: price,
        status: 'open',
        period_start: kind === 'upgrade' ? sub!.period_start : null,
        period_end: kind === 'upgrade' ? sub!.period_end : null,
        paid_at: null,
        created_at: now,
      };
      invoice.number = invoiceNumber(invoice.id, now);
      await tx.db.insertInto('invoices').values(invoice).execute();
    }
    const payment: PaymentRow = {
      id: newId(),
      invoice_id: invoice.id,
      org_id: orgId,
      provider: tx.subscriptionPayments.name,
      provider_ref: null,
      phone,
      network: input.network,
      amount: Number(invoice.amount),
      reported_amount: null,
      status: 'pending',
      detail: null,
      checked_at: null,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto('payments').values(payment).execute();
    const what = invoice === renewal ? `paying renewal ${invoice.number}` : `${kind} ${plan.code} ${cycle}`;
    await recordBillingEvent(tx, {
      orgId,
      kind: invoice === renewal ? 'payment.started' : 'invoice.issued',
      detail: `${what}: ${formatTzs(Number(invoice.amount))}`,
      fromPlan: current.code,
      toPlan: plan.code,
      invoiceId: invoice.id,
      paymentId: payment.id,
    });
    pushAfterCommit(tx, ctx, payment, `Duka ${plan.name_en} (${cycle}) ${invoice.number}`);
    return { invoice, payment };
  });
  // The push ran after commit: a rejected push has already marked the payment failed.
  const after = await ctx.db
    .selectFrom('payments')
    .selectAll()
    .where('org_id', '=', payment.org_id)
    .where('id', '=', payment.id)
    .executeTakeFirstOrThrow();
  return { change: 'started', invoice: toInvoice(invoice, plan.code), payment: toPayment(after) };
}

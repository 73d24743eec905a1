/**
 * runBillingJobs(deps), on the server's 30 s timer: period ends (renewal invoice and push, or back
 * to free after a cancellation, or the scheduled downgrade), the grace (past_due → suspended after
 * GRACE_DAYS), daily reminders while past_due, and asking the provider about payments whose
 * callback never came. Safe on several instances at once: each step first claims its row with a
 * conditional update (and a renewal's invoice is unique per period), so only one instance acts.
 * Time comes from the injected clock.
 */
import { formatTzs, newId, periodEndOf } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { Deps, ServiceContext } from '../../../lib/context.js';
import type { Lease } from '../../../lib/leases.js';
import {
  dueReminders,
  FREE_PLAN,
  findPlan,
  findPlanByCode,
  graceOver,
  type InvoiceRow,
  type PaymentRow,
  periodsEnded,
  priceOf,
  type SubscriptionRow,
} from '../billing.queries.js';
import { claimStalePayment, newestOpenRenewal, stalePendingPayments } from '../invoices.queries.js';
import { invoiceNumber } from './checkout.js';
import { recordBillingEvent } from './history.js';
import { applyPaymentResult, pushAfterCommit } from './subscription-payments.js';
import { GRACE_DAYS } from './subscription.js';

const DAY = 86_400_000;
/** A payment still pending this long is asked about (its callback may be lost). */
export const QUERY_AFTER_MS = 5 * 60_000;
const BATCH = 100;

/** `lease`: the job's, when run by the timer; each step's transaction fences it (lib/leases.ts). */
export async function runBillingJobs(deps: Deps, lease?: Lease): Promise<void> {
  const ctx: ServiceContext = { ...deps, actor: null, requestId: 'billing-job' };
  await endPeriods(ctx, lease);
  await suspendAfterGrace(ctx, lease);
  await remind(ctx, lease);
  if (lease?.held !== false) await queryStalePayments(ctx);
}

async function endPeriods(ctx: ServiceContext, lease?: Lease) {
  const now = ctx.clock.now();
  const due = await periodsEnded(ctx.db, now, BATCH);
  for (const sub of due) {
    try {
      await endPeriod(ctx, sub, lease);
    } catch (err) {
      ctx.log.warn({ err, org_id: sub.org_id }, 'billing: ending a period failed');
    }
  }
}

async function endPeriod(ctx: ServiceContext, sub: SubscriptionRow, lease?: Lease) {
  const free = (await findPlanByCode(ctx.db, FREE_PLAN))!;
  const current = await findPlan(ctx.db, sub.plan_id);
  const toFree = sub.cancel_at_period_end === 1 || sub.next_plan_id === free.id;
  await withTransaction(ctx, async (tx) => {
    await lease?.fence(tx.db);
    const now = tx.clock.now();
    // The claim: only the instance whose update matched the period it read goes on.
    const claim = tx.db
      .updateTable('subscriptions')
      .where('org_id', '=', sub.org_id)
      .where('status', '=', 'active')
      .where('period_end', '=', sub.period_end);
    if (toFree) {
      const done = await claim
        .set({
          plan_id: free.id,
          billing_cycle: null,
          price: 0,
          period_start: null,
          period_end: null,
          cancel_at_period_end: 0,
          next_plan_id: null,
          next_billing_cycle: null,
          updated_at: now,
        })
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return;
      await recordBillingEvent(tx, {
        orgId: sub.org_id,
        kind: 'subscription.changed',
        fromPlan: current?.code,
        toPlan: FREE_PLAN,
        fromStatus: 'active',
        toStatus: 'active',
        detail: 'the period ended after a cancellation: back on free',
      });
      return;
    }
    const plan = (sub.next_plan_id && (await findPlan(tx.db, sub.next_plan_id))) || current!;
    const cycle = (sub.next_plan_id ? sub.next_billing_cycle : sub.billing_cycle) as 'monthly' | 'yearly';
    const done = await claim.set({ status: 'past_due', past_due_since: Number(sub.period_end), updated_at: now }).executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) return;
    // A new price applies from here: the renewal is billed at the plan's price today.
    const amount = priceOf(plan, cycle);
    const start = Number(sub.period_end);
    const invoice: InvoiceRow = {
      id: newId(),
      org_id: sub.org_id,
      number: '',
      kind: 'renewal',
      plan_id: plan.id,
      billing_cycle: cycle,
      amount,
      plan_price: amount,
      status: 'open',
      period_start: start,
      period_end: periodEndOf(start, cycle),
      paid_at: null,
      created_at: now,
    };
    invoice.number = invoiceNumber(invoice.id, now);
    await tx.db.insertInto('invoices').values(invoice).execute();
    await recordBillingEvent(tx, {
      orgId: sub.org_id,
      kind: 'invoice.issued',
      fromPlan: current?.code,
      toPlan: plan.code,
      fromStatus: 'active',
      toStatus: 'past_due',
      invoiceId: invoice.id,
      detail: `renewal ${plan.code} ${cycle}: ${formatTzs(amount)}; past due until paid`,
    });
    if (!sub.payer_phone || !sub.payer_network) return;
    const payment: PaymentRow = {
      id: newId(),
      invoice_id: invoice.id,
      org_id: sub.org_id,
      provider: tx.subscriptionPayments.name,
      provider_ref: null,
      phone: sub.payer_phone,
      network: sub.payer_network,
      amount,
      reported_amount: null,
      status: 'pending',
      detail: null,
      checked_at: null,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto('payments').values(payment).execute();
    pushAfterCommit(tx, ctx, payment, `Duka ${plan.name_en} renewal ${invoice.number}`);
  });
}

async function suspendAfterGrace(ctx: ServiceContext, lease?: Lease) {
  const now = ctx.clock.now();
  const limit = now - GRACE_DAYS * DAY;
  const due = await graceOver(ctx.db, limit, BATCH);
  for (const { org_id } of due) {
    await withTransaction(ctx, async (tx) => {
      await lease?.fence(tx.db);
      const done = await tx.db
        .updateTable('subscriptions')
        .set({ status: 'suspended', updated_at: now })
        .where('org_id', '=', org_id)
        .where('status', '=', 'past_due')
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return;
      await recordBillingEvent(tx, {
        orgId: org_id,
        kind: 'subscription.suspended',
        fromStatus: 'past_due',
        toStatus: 'suspended',
        detail: `renewal unpaid after ${GRACE_DAYS} days: held to the free plan's limits; selling goes on`,
      });
      await tellOwner(
        tx,
        org_id,
        'Duka: your subscription is suspended',
        'Duka: usajili wako umesimamishwa kwa kutolipa. Unaweza kuendelea kuuza; lipa ili kurudisha huduma zote. / Your Duka subscription is suspended for non-payment. Selling goes on; pay to restore your plan.',
      );
    });
  }
}

/** At most one reminder a day per organisation while past due: the claim is the last_reminder_at update. */
async function remind(ctx: ServiceContext, lease?: Lease) {
  const now = ctx.clock.now();
  const due = await dueReminders(ctx.db, now - DAY, BATCH);
  for (const sub of due) {
    await withTransaction(ctx, async (tx) => {
      await lease?.fence(tx.db);
      const done = await tx.db
        .updateTable('subscriptions')
        .set({ last_reminder_at: now })
        .where('org_id', '=', sub.org_id)
        .where('status', '=', 'past_due')
        .where((eb) => eb.or([eb('last_reminder_at', 'is', null), eb('last_reminder_at', '<=', now - DAY)]))
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return;
      const invoice = await newestOpenRenewal(tx.db, sub.org_id);
      const days = Math.max(0, Math.ceil((Number(sub.past_due_since) + GRACE_DAYS * DAY - now) / DAY));
      const what = invoice ? `${invoice.number} (${formatTzs(Number(invoice.amount))})` : 'your renewal';
      await tellOwner(
        tx,
        sub.org_id,
        'Duka: your renewal is unpaid',
        `Duka: lipa ${what} ndani ya siku ${days} ili usisimamishwe. / Pay ${what} within ${days} days to avoid suspension.`,
      );
      await recordBillingEvent(tx, { orgId: sub.org_id, kind: 'reminder.sent', detail: `reminder: ${days} days of grace left` });
    });
  }
}

/** Platform messages (no orgId: they do not count against the shop's own SMS allowance). */
async function tellOwner(ctx: ServiceContext, orgId: string, subject: string, body: string) {
  const owner = await ctx.db
    .selectFrom('users')
    .select(['phone', 'email'])
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner')
    .where('is_active', '=', 1)
    .executeTakeFirst();
  if (!owner) return;
  if (owner.phone) await ctx.messenger.send(ctx, { channel: 'sms', to: owner.phone, body });
  if (owner.email) await ctx.messenger.send(ctx, { channel: 'email', to: owner.email, subject, body });
}

async function queryStalePayments(ctx: ServiceContext) {
  const now = ctx.clock.now();
  const stale = await stalePendingPayments(ctx.db, now - QUERY_AFTER_MS, BATCH);
  for (const p of stale) {
    const claimed = await claimStalePayment(ctx.db, p, now);
    if (Number(claimed.numUpdatedRows) === 0) continue;
    try {
      const result = await ctx.subscriptionPayments.queryStatus(p.id, p.provider_ref, AbortSignal.timeout(15_000));
      await applyPaymentResult(ctx, { ...result, reference: p.id }, p.org_id);
    } catch (err) {
      ctx.log.warn({ err, payment_id: p.id }, 'billing: payment status query failed');
    }
  }
}

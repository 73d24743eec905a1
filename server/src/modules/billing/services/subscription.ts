/** An organisation's subscription as its owner sees it: plan, status, period, usage against every limit, invoices; and cancelling. */
import { type CurrentSubscription, type Invoice, type ListInvoicesQuery, type PageMeta, PlanLimitName, LIMIT_FIELD } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import { isoOrNull } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError } from '../../../lib/errors.js';
import { countGrowth, countMonthly, FREE_PLAN, toInvoice, toPlan } from '../billing.queries.js';
import { recordBillingEvent } from './history.js';
import { aiCreditAllowance } from './limits.js';
import { countedPage } from '../../../db/page.js';

/** Days a renewal may stay unpaid (past_due) before the organisation is suspended. */
export const GRACE_DAYS = 7;
const DAY = 86_400_000;
const num = (v: number | null) => (v === null ? null : Number(v));

export async function currentSubscription(ctx: AuthedContext): Promise<CurrentSubscription> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const now = ctx.clock.now();
  const [{ allowance, inForce }, growth, monthly] = await Promise.all([
    aiCreditAllowance(ctx.db, orgId),
    countGrowth(ctx.db, orgId),
    countMonthly(ctx.db, orgId, now),
  ]);
  const { subscription: sub, plan, effective, plans } = inForce;
  const next = sub?.next_plan_id ? plans.find((p) => p.id === sub.next_plan_id) : undefined;
  const end = num(sub?.period_end ?? null);
  const scheduled =
    sub && end !== null && sub.cancel_at_period_end
      ? { plan_code: FREE_PLAN, billing_cycle: 'monthly' as const, at: isoOrNull(end)! }
      : next && end !== null
        ? { plan_code: next.code, billing_cycle: sub!.next_billing_cycle as 'monthly' | 'yearly', at: isoOrNull(end)! }
        : null;
  const used: Record<PlanLimitName, number> = { ...growth, ai_credits: monthly.ai_credits, sms: monthly.sms };
  const usage = PlanLimitName.options.map((limit) => ({
    limit,
    used: used[limit],
    max: limit === 'ai_credits' ? allowance : effective[LIMIT_FIELD[limit]],
  }));
  return {
    plan: toPlan(plan),
    effective_plan_code: effective.code,
    status: (sub?.status ?? 'active') as CurrentSubscription['status'],
    billing_cycle: (sub?.billing_cycle ?? null) as CurrentSubscription['billing_cycle'],
    current_period_start: isoOrNull(num(sub?.period_start ?? null)),
    current_period_end: isoOrNull(end),
    cancel_at_period_end: sub?.cancel_at_period_end === 1,
    scheduled_change: scheduled,
    grace_ends_at:
      sub?.status === 'past_due' && sub.past_due_since !== null ? isoOrNull(Number(sub.past_due_since) + GRACE_DAYS * DAY) : null,
    usage,
  };
}

export async function listInvoices(ctx: AuthedContext, q: ListInvoicesQuery): Promise<{ items: Invoice[]; meta: PageMeta }> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const base = ctx.db.selectFrom('invoices').where('invoices.org_id', '=', orgId);
  const { rows, meta } = await countedPage(
    base,
    base
      .innerJoin('plans', 'plans.id', 'invoices.plan_id')
      .selectAll('invoices')
      .select('plans.code as plan_code')
      .orderBy('invoices.created_at', 'desc')
      .orderBy('invoices.id', 'desc'),
    q,
  );
  return { items: rows.map((r) => toInvoice(r, r.plan_code)), meta };
}

/** Cancel at the period end: the organisation returns to free then. Checking out again undoes it. */
export async function cancelSubscription(ctx: AuthedContext): Promise<CurrentSubscription> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const sub = await ctx.db.selectFrom('subscriptions').selectAll().where('org_id', '=', orgId).executeTakeFirst();
  if (!sub || sub.period_end === null || Number(sub.price) === 0)
    throw new InvalidStateError('you are on the free plan: there is nothing to cancel');
  if (!sub.cancel_at_period_end) {
    await withTransaction(ctx, async (tx) => {
      await tx.db
        .updateTable('subscriptions')
        .set({ cancel_at_period_end: 1, next_plan_id: null, next_billing_cycle: null, updated_at: tx.clock.now() })
        .where('org_id', '=', orgId)
        .execute();
      await recordBillingEvent(tx, {
        orgId,
        kind: 'subscription.cancel_requested',
        detail: 'returns to free at the period end',
        toPlan: FREE_PLAN,
      });
    });
  }
  return currentSubscription(ctx);
}

/**
 * The platform admin's view of billing: every organisation's subscription from the real tables
 * (GET /admin/subscriptions), the billing history, and MRR and churn for /admin/analytics/overview.
 */
import {
  type AdminSubscription,
  type BillingEvent,
  fromCents,
  type ListAdminSubscriptionsQuery,
  type ListBillingEventsQuery,
  monthlyEquivalent,
  type PageMeta,
} from '@duka/shared';
import { containsText } from '../../../db/dialect.js';
import { crossOrg } from '../../../db/tenant-scope-check.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';
import { iso, isoOrNull } from '../../../lib/clock.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { FREE_PLAN, paidRunningSubscriptions } from '../billing.queries.js';
import { planChangeEvents } from '../invoices.queries.js';
import { countedPage } from '../../../db/page.js';

export async function listAdminSubscriptions(
  ctx: AuthedContext,
  q: ListAdminSubscriptionsQuery,
): Promise<{ items: AdminSubscription[]; meta: PageMeta }> {
  requireAdmin(ctx);
  const base = ctx.db
    .selectFrom('organisations as o')
    .leftJoin('subscriptions as s', 's.org_id', 'o.id')
    .leftJoin('plans as p', 'p.id', 's.plan_id')
    .$call((qb) => (q.org_id ? qb.where('o.id', '=', q.org_id) : qb.modifyEnd(crossOrg('platform operators'))))
    .$if(!!q.search, (qb) => qb.where(containsText(ctx.dialect, 'o.name', q.search!)))
    .$if(!!q.status, (qb) => qb.where('o.is_active', '=', q.status === 'active' ? 1 : 0));
  const { rows, meta } = await countedPage(
    base,
    base
      .select(['o.id', 'o.name', 'o.is_active', 'o.ai_credits_monthly', 'o.created_at'])
      .select([
        's.status',
        's.billing_cycle',
        's.price',
        's.period_end',
        's.cancel_at_period_end',
        'p.code',
        'p.ai_credits_monthly as plan_ai',
      ])
      .orderBy('o.name')
      .orderBy('o.id'),
    q,
  );
  const ids = rows.map((r) => r.id);
  const payments = ids.length
    ? await ctx.db
        .selectFrom('payments')
        .select(['org_id', 'status', 'amount', 'created_at', 'detail'])
        .where('org_id', 'in', ids)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    : [];
  const last = new Map<string, (typeof payments)[number]>();
  for (const p of payments) if (!last.has(p.org_id)) last.set(p.org_id, p);
  return {
    items: rows.map((r) => {
      const paid = r.billing_cycle !== null && Number(r.price ?? 0) > 0;
      const cycle = r.billing_cycle as 'monthly' | 'yearly';
      const payment = last.get(r.id);
      return {
        org_id: r.id,
        organisation_name: r.name,
        plan: r.code ?? FREE_PLAN,
        status: r.is_active === 1 ? ('active' as const) : ('suspended' as const),
        subscription_status: (r.status ?? 'active') as AdminSubscription['subscription_status'],
        ai_credits_monthly: r.ai_credits_monthly ?? r.plan_ai ?? null,
        ai_credits_custom: r.ai_credits_monthly != null,
        since: iso(Number(r.created_at)),
        billing: paid
          ? {
              billing_cycle: cycle,
              price: fromCents(Number(r.price)),
              monthly_equivalent: fromCents(monthlyEquivalent(cycle, Number(r.price))),
              current_period_end: isoOrNull(r.period_end === null ? null : Number(r.period_end)),
              cancel_at_period_end: r.cancel_at_period_end === 1,
              last_payment: payment
                ? {
                    status: payment.status as 'paid',
                    amount: fromCents(Number(payment.amount)),
                    at: iso(Number(payment.created_at)),
                    detail: payment.detail,
                  }
                : null,
            }
          : null,
      };
    }),
    meta,
  };
}

const WINDOW_MS = 30 * 86_400_000;

/**
 * MRR and churn, now and over the 30 days before now.
 * - MRR: the sum over subscriptions with status `active` and a paid period (price > 0) of their
 *   monthly-equivalent price (monthly: the price; yearly: price / 12 rounded down to the cent).
 *   past_due and suspended subscriptions are not revenue until paid.
 * - paid at start: organisations whose last plan event at or before (now − 30 days) put them on a
 *   paid plan (`subscription.changed` to a plan other than free); a past_due one still counts,
 *   a suspended one does not.
 * - churned: of those, the ones with a `subscription.changed` to free or a `subscription.suspended`
 *   in (now − 30 days, now].
 * - churn_rate = churned / paid_at_start × 100, rounded to 2 decimals (0 when none were paid).
 */
export async function billingFigures(ctx: ServiceContext) {
  const now = ctx.clock.now();
  const start = now - WINDOW_MS;
  const [running, events] = await Promise.all([paidRunningSubscriptions(ctx.db), planChangeEvents(ctx.db, now)]);
  const mrr = running.reduce((sum, s) => sum + monthlyEquivalent(s.billing_cycle as 'monthly' | 'yearly', Number(s.price)), 0);
  const paidAtStart = new Map<string, boolean>();
  const churnedOrgs = new Set<string>();
  for (const e of events) {
    const churn = e.kind === 'subscription.suspended' || e.to_plan === FREE_PLAN;
    if (Number(e.created_at) <= start) paidAtStart.set(e.org_id, !churn);
    else if (churn && paidAtStart.get(e.org_id)) churnedOrgs.add(e.org_id);
  }
  const paid = [...paidAtStart.values()].filter(Boolean).length;
  const churned = churnedOrgs.size;
  return {
    mrr: fromCents(mrr),
    paying_organisations: running.length,
    paid_at_start: paid,
    churned,
    churn_rate: paid > 0 ? Math.round((churned / paid) * 10_000) / 100 : 0,
  };
}

/** The billing history, newest first: every invoice, payment and status change (subscription_events). */
export async function listBillingEvents(ctx: AuthedContext, q: ListBillingEventsQuery): Promise<{ items: BillingEvent[]; meta: PageMeta }> {
  requireAdmin(ctx);
  const base = ctx.db
    .selectFrom('subscription_events')
    .$call((qb) => (q.org_id ? qb.where('org_id', '=', q.org_id) : qb.modifyEnd(crossOrg('platform operators'))));
  const { rows, meta } = await countedPage(base, base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), q);
  return { items: rows.map((r) => ({ ...r, created_at: iso(Number(r.created_at)) })), meta };
}

/**
 * Plan limits on the server: the verbs that grow an organisation (a store, a staff member, a
 * product, an AI credit, a customer SMS) ask `checkPlanAllows` first; a refusal of the shared rule
 * (checkPlanLimit) becomes 402 PLAN_LIMIT naming the limit and the cheapest plan that lifts it.
 * Selling, refunds and sync never come here. A suspended organisation is held to `free`'s limits.
 */
import { checkPlanLimit, LIMIT_FIELD, type PlanLimitName } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { ServiceContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import { allPlans, countGrowth, countMonthly, FREE_PLAN, type PlanRow, type SubscriptionRow, toLimitPlan } from '../billing.queries.js';

export class PlanLimitError extends ServiceError {
  constructor(limit: PlanLimitName, message: string, meta: Record<string, unknown>) {
    super('PLAN_LIMIT', message, { errors: [{ code: 'PLAN_LIMIT', field: limit, message }], meta });
  }
}

export interface PlanInForce {
  subscription: SubscriptionRow | undefined;
  /** The plan subscribed to. */
  plan: PlanRow;
  /** The plan whose limits apply now: `free` while suspended. */
  effective: PlanRow;
  plans: PlanRow[];
}

/** An organisation without a subscription row (created before billing) is on free. */
export async function planInForce(db: Kysely<Database>, orgId: string): Promise<PlanInForce> {
  const [plans, subscription] = await Promise.all([
    allPlans(db),
    db.selectFrom('subscriptions').selectAll().where('org_id', '=', orgId).executeTakeFirst(),
  ]);
  const free = plans.find((p) => p.code === FREE_PLAN);
  if (!free) throw new Error('the free plan is missing: migration 2026_11_23_0022 seeds it');
  const plan = (subscription && plans.find((p) => p.id === subscription.plan_id)) || free;
  return { subscription, plan, effective: subscription?.status === 'suspended' ? free : plan, plans };
}

async function usedOf(db: Kysely<Database>, orgId: string, limit: PlanLimitName, now: number): Promise<number> {
  if (limit === 'ai_credits' || limit === 'sms') return (await countMonthly(db, orgId, now))[limit];
  return (await countGrowth(db, orgId))[limit];
}

/** Throws PlanLimitError (402) when adding `count` more of `limit` goes past the plan in force. */
export async function checkPlanAllows(ctx: ServiceContext, orgId: string, limit: PlanLimitName, count = 1): Promise<void> {
  const inForce = await planInForce(ctx.db, orgId);
  if (inForce.effective[LIMIT_FIELD[limit]] === null) return;
  const used = await usedOf(ctx.db, orgId, limit, ctx.clock.now());
  refuseUnlessAllowed(inForce, limit, used, count);
}

export function refuseUnlessAllowed(inForce: PlanInForce, limit: PlanLimitName, used: number, count: number, max?: number | null): void {
  const limits = toLimitPlan(inForce.effective);
  if (max !== undefined) limits[LIMIT_FIELD[limit]] = max;
  const check = checkPlanLimit(limits, limit, used, count, inForce.plans.map(toLimitPlan));
  if (check.allowed) return;
  throw new PlanLimitError(limit, check.message, { limit, max: check.max, used, plan: check.liftedBy?.code ?? null });
}

/**
 * The monthly AI credits an organisation may spend: its own allocation when the platform admin set
 * one, otherwise its plan's (free's while suspended); null = unlimited.
 */
export async function aiCreditAllowance(db: Kysely<Database>, orgId: string): Promise<{ allowance: number | null; inForce: PlanInForce }> {
  const [inForce, org] = await Promise.all([
    planInForce(db, orgId),
    db.selectFrom('organisations').select('ai_credits_monthly').where('id', '=', orgId).executeTakeFirst(),
  ]);
  return { allowance: org?.ai_credits_monthly ?? inForce.effective.ai_credits_monthly, inForce };
}

/** The plans' monthly AI credits of many organisations at once (free's while suspended or without a row); null = unlimited. */
export async function planAiCredits(db: Kysely<Database>, orgIds: string[]): Promise<Map<string, number | null>> {
  const free = await db.selectFrom('plans').select('ai_credits_monthly').where('code', '=', FREE_PLAN).executeTakeFirst();
  const rows = orgIds.length
    ? await db
        .selectFrom('subscriptions as s')
        .innerJoin('plans as p', 'p.id', 's.plan_id')
        .select(['s.org_id', 's.status', 'p.ai_credits_monthly'])
        .where('s.org_id', 'in', orgIds)
        .execute()
    : [];
  const byOrg = new Map(rows.map((r) => [r.org_id, r.status === 'suspended' ? (free?.ai_credits_monthly ?? null) : r.ai_credits_monthly]));
  return new Map(orgIds.map((id) => [id, byOrg.has(id) ? byOrg.get(id)! : (free?.ai_credits_monthly ?? null)]));
}

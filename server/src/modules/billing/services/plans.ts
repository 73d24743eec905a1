/**
 * Plans: the platform admin's catalogue (create, update, retire; each change audited) and what an
 * owner may choose. A new price applies to periods that start after it: a running period keeps the
 * price it was bought at (subscriptions.price) and an issued invoice keeps its amount.
 */
import { type CreatePlanInput, newId, type Plan, toCents, type UpdatePlanInput } from '@duka/shared';
import { recordAudit } from '../../../lib/audit.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { DuplicateError, InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { uniqueViolationField } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { allPlans, FREE_PLAN, findPlan, type PlanRow, toPlan } from '../billing.queries.js';

export async function listPlansForAdmin(ctx: AuthedContext): Promise<Plan[]> {
  requireAdmin(ctx);
  return (await allPlans(ctx.db)).map(toPlan);
}

/** What an owner can check out: active plans, cheapest first. */
export async function listActivePlans(ctx: AuthedContext): Promise<Plan[]> {
  return (await allPlans(ctx.db)).filter((p) => p.status === 'active').map(toPlan);
}

type Columns = Partial<Omit<PlanRow, 'id' | 'code' | 'created_at'>>;

function columnsOf(input: UpdatePlanInput): Columns {
  const { price_monthly, price_yearly, features, ...rest } = input;
  return {
    ...rest,
    ...(price_monthly !== undefined ? { price_monthly: toCents(price_monthly) } : {}),
    ...(price_yearly !== undefined ? { price_yearly: toCents(price_yearly) } : {}),
    ...(features !== undefined ? { features: JSON.stringify([...new Set(features)]) } : {}),
  };
}

export async function createPlan(ctx: AuthedContext, input: CreatePlanInput): Promise<Plan> {
  requireAdmin(ctx);
  try {
    return await withTransaction(ctx, async (tx) => {
      const now = tx.clock.now();
      const row: PlanRow = {
        id: newId(),
        code: input.code,
        name_en: input.name_en,
        name_sw: input.name_sw,
        price_monthly: 0,
        price_yearly: 0,
        max_stores: input.max_stores,
        max_staff: input.max_staff,
        max_products: input.max_products,
        ai_credits_monthly: input.ai_credits_monthly,
        sms_monthly: input.sms_monthly,
        features: '[]',
        status: 'active',
        created_at: now,
        updated_at: now,
        ...columnsOf(input),
      };
      await tx.db.insertInto('plans').values(row).execute();
      await recordAudit(tx, {
        action: 'plan.create',
        description: `Created plan ${row.code} at TZS ${input.price_monthly}/month, ${input.price_yearly}/year`,
        entity: 'plan',
        entityId: row.id,
        orgId: null,
        storeId: null,
      });
      return toPlan(row);
    });
  } catch (err) {
    if (uniqueViolationField(err) === 'code') throw new DuplicateError('code', `a plan with code ${input.code} exists`);
    throw err;
  }
}

async function requirePlan(ctx: AuthedContext, id: string): Promise<PlanRow> {
  const plan = await findPlan(ctx.db, id);
  if (!plan) throw new NotFoundError('plan');
  return plan;
}

export async function updatePlan(ctx: AuthedContext, id: string, input: UpdatePlanInput): Promise<Plan> {
  requireAdmin(ctx);
  const plan = await requirePlan(ctx, id);
  const set = columnsOf(input);
  if (plan.code === FREE_PLAN && ((set.price_monthly ?? 0) > 0 || (set.price_yearly ?? 0) > 0))
    throw new InvalidStateError('the free plan has no price');
  return withTransaction(ctx, async (tx) => {
    const updated = await tx.db
      .updateTable('plans')
      .set({ ...set, updated_at: tx.clock.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const changed = Object.keys(input).join(', ');
    await recordAudit(tx, {
      action: 'plan.update',
      description: `Changed plan ${plan.code}: ${changed}`,
      entity: 'plan',
      entityId: id,
      orgId: null,
      storeId: null,
    });
    return toPlan(updated);
  });
}

/** A retired plan can no longer be checked out; organisations on it stay until they change. */
export async function retirePlan(ctx: AuthedContext, id: string): Promise<Plan> {
  requireAdmin(ctx);
  const plan = await requirePlan(ctx, id);
  if (plan.code === FREE_PLAN) throw new InvalidStateError('the free plan cannot be retired: every organisation falls back to it');
  if (plan.status === 'retired') return toPlan(plan);
  return withTransaction(ctx, async (tx) => {
    const updated = await tx.db
      .updateTable('plans')
      .set({ status: 'retired', updated_at: tx.clock.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(tx, {
      action: 'plan.retire',
      description: `Retired plan ${plan.code}`,
      entity: 'plan',
      entityId: id,
      orgId: null,
      storeId: null,
    });
    return toPlan(updated);
  });
}

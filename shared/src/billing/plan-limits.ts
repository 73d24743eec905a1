/**
 * The plan-limit rule, applied by the server to every verb that grows an organisation (and by a
 * till that wants to tell the user before asking): given the limits in force, what is used, and
 * how many more are being added, it answers allowed, or the limit hit and the cheapest active
 * plan that lifts it. Never applied to selling: sales, refunds and sync go on in every status.
 */
import type { PlanLimitName, PlanLimits } from './billing.schemas.js';

export const LIMIT_FIELD: Record<PlanLimitName, keyof PlanLimits> = {
  stores: 'max_stores',
  staff: 'max_staff',
  products: 'max_products',
  ai_credits: 'ai_credits_monthly',
  sms: 'sms_monthly',
};

const LIMIT_WORDS: Record<PlanLimitName, string> = {
  stores: 'stores',
  staff: 'staff members',
  products: 'products',
  ai_credits: 'AI credits a month',
  sms: 'SMS a month',
};

/** A plan as the rule needs it: its limits, its monthly price in cents for "cheapest", its status. */
export interface LimitPlan extends PlanLimits {
  code: string;
  name_en: string;
  price_monthly_cents: number;
  status: 'active' | 'retired';
}

export type PlanLimitCheck =
  | { allowed: true }
  | {
      allowed: false;
      limit: PlanLimitName;
      max: number;
      used: number;
      liftedBy: { code: string; name_en: string } | null;
      message: string;
    };

/** Whether `max` (null = unlimited) leaves room for `adding` more beyond `used`. */
const fits = (max: number | null, used: number, adding: number) => max === null || used + adding <= max;

export function checkPlanLimit(
  limits: PlanLimits,
  limit: PlanLimitName,
  used: number,
  adding: number,
  plans: readonly LimitPlan[],
): PlanLimitCheck {
  const field = LIMIT_FIELD[limit];
  const max = limits[field];
  if (fits(max, used, adding)) return { allowed: true };
  const lifting = plans
    .filter((p) => p.status === 'active' && fits(p[field], used, adding))
    .sort((a, b) => a.price_monthly_cents - b.price_monthly_cents || a.code.localeCompare(b.code))[0];
  const liftedBy = lifting ? { code: lifting.code, name_en: lifting.name_en } : null;
  const message =
    `your plan allows ${max} ${LIMIT_WORDS[limit]} and ${used} are used; ` +
    (liftedBy ? `the ${liftedBy.name_en} plan (${liftedBy.code}) lifts this limit` : 'no plan lifts this limit; contact support');
  return { allowed: false, limit, max: max!, used, liftedBy, message };
}

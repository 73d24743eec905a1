import type { AuthedContext } from '../../../lib/context.js';
import { DEFAULT_TIMEZONE, localMonth } from '../../../lib/time.js';
import { findOrganisation } from '../../tenancy/tenancy.exports.js';
import { aiCreditAllowance } from '../../billing/billing.exports.js';

/** Shown for a plan without an AI limit (null): the most a platform admin can allocate. */
export const UNLIMITED_AI_CREDITS = 1_000_000;

/**
 * This month's AI credits (month in the organisation's time zone). The allowance is the
 * organisation's own when the platform admin set one, otherwise its plan's (billing).
 */
export async function getAiCredits(ctx: AuthedContext) {
  const org = ctx.actor.orgId ? await findOrganisation(ctx.db, ctx.actor.orgId) : undefined;
  const month = localMonth(ctx.clock.now(), org?.timezone ?? DEFAULT_TIMEZONE);
  const allocated = org ? ((await aiCreditAllowance(ctx.db, org.id)).allowance ?? UNLIMITED_AI_CREDITS) : 0;
  const usage = org
    ? await ctx.db.selectFrom('ai_credit_usage').select('used').where('org_id', '=', org.id).where('month', '=', month).executeTakeFirst()
    : undefined;
  const used = usage?.used ?? 0;
  return {
    used,
    allocated,
    remaining: Math.max(0, allocated - used),
    month,
    percentage: allocated > 0 ? Math.round((used / allocated) * 10_000) / 100 : 0,
  };
}

import type { AuthedContext } from '../../../lib/context.js';
import { DEFAULT_TIMEZONE, localMonth } from '../../../lib/time.js';
import { findOrganisation } from '../accounts.queries.js';

/** This month's AI credits (month in the organisation's time zone). */
export async function getAiCredits(ctx: AuthedContext) {
  const org = ctx.actor.orgId ? await findOrganisation(ctx.db, ctx.actor.orgId) : undefined;
  const month = localMonth(ctx.clock.now(), org?.timezone ?? DEFAULT_TIMEZONE);
  const allocated = org?.ai_credits_monthly ?? ctx.config.AI_CREDITS_MONTHLY;
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

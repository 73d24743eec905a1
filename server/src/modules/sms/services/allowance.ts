/**
 * A shop's customer SMS on the platform's account count against its plan (`sms_monthly`); on its
 * own gateway account they are its own bill and are not limited here.
 */
import type { ServiceContext } from '../../../lib/context.js';
import { checkPlanAllows } from '../../billing/billing.exports.js';

export async function requireCustomerSmsAllowance(ctx: ServiceContext, orgId: string): Promise<void> {
  const org = await ctx.db
    .selectFrom('organisations')
    .select(['sms_provider', 'sms_api_key_enc'])
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (org?.sms_provider && org.sms_api_key_enc) return;
  await checkPlanAllows(ctx, orgId, 'sms', 1);
}

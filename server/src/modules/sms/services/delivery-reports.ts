/** POST /sms/reports/:provider/:token: a gateway's delivery reports, checked and applied to its own account's messages. */
import type { SmsProviderName } from '@duka/shared';
import { organisationSmsAccounts } from '../../../messaging/sms/accounts.js';
import { applyDeliveryReports, reportScopeOf } from '../../../messaging/sms/delivery-reports.js';
import { smsProviders } from '../../../messaging/sms/index.js';
import type { CallbackInput } from '../../../messaging/sms/sms-provider.js';
import type { ServiceContext } from '../../../lib/context.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';

export async function receiveDeliveryReports(
  ctx: ServiceContext,
  provider: SmsProviderName,
  token: string,
  input: CallbackInput,
): Promise<{ applied: number }> {
  const scope = await reportScopeOf(ctx.keys, provider, token, organisationSmsAccounts(ctx.db, ctx.keys, ctx.config));
  // A wrong token looks like a missing route: nothing tells a prober the path exists.
  if (!scope) throw new NotFoundError('route');
  const reports = smsProviders[provider].parseDeliveryReport(input);
  if (!reports) throw new ValidationError('body', `is not a ${provider} delivery report`);
  return { applied: await applyDeliveryReports(ctx.db, ctx.clock, provider, scope, reports) };
}

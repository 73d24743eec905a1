/** POST /sms/reports/:provider/:token: a gateway's delivery reports, checked and applied. */
import type { SmsProviderName } from '@duka/shared';
import { applyDeliveryReports, reportsTokenValid } from '../../../messaging/sms/delivery-reports.js';
import { smsProviders } from '../../../messaging/sms/index.js';
import type { CallbackInput } from '../../../messaging/sms/sms-provider.js';
import type { ServiceContext } from '../../../lib/context.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';

export async function receiveDeliveryReports(ctx: ServiceContext, provider: SmsProviderName, token: string, input: CallbackInput): Promise<{ applied: number }> {
  // A wrong token looks like a missing route: nothing tells a prober the path exists.
  if (!reportsTokenValid(ctx.keys, provider, token)) throw new NotFoundError('route');
  const reports = smsProviders[provider].parseDeliveryReport(input);
  if (!reports) throw new ValidationError('body', `is not a ${provider} delivery report`);
  return { applied: await applyDeliveryReports(ctx.db, ctx.clock, provider, reports) };
}

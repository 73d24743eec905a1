/** GET /sms/account: which gateway account the organisation's customer messages use, and this month's usage. */
import { fromCents, type SmsAccount, type SmsUsage } from '@duka/shared';
import { organisationReportsToken } from '../../../messaging/sms/delivery-reports.js';
import { organisationSmsAccounts, platformSmsAccount } from '../../../messaging/sms/accounts.js';
import { requireOrg, requireRole } from '../../../lib/auth/authorize.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { localMonthRange } from '../../../lib/time.js';
import { findOrganisation, orgTimezone } from '../../tenancy/tenancy.exports.js';
import { publicOrigin } from '../../../env.js';
import { sentSmsByAccount } from '../sms.queries.js';

/** The bounds of the organisation's current local month, as epoch ms. */
export async function currentMonth(ctx: ServiceContext, orgId: string): Promise<{ month: string; from: number; to: number }> {
  return localMonthRange(ctx.clock.now(), await orgTimezone(ctx.db, orgId));
}

/** SMS a gateway accepted for the organisation between two instants, per account. */
export async function smsUsage(
  ctx: ServiceContext,
  orgId: string,
  from: number,
  to: number,
): Promise<Record<'organisation' | 'platform', SmsUsage>> {
  const rows = await sentSmsByAccount(ctx.db, orgId, from, to);
  const usage = (account: string): SmsUsage => {
    const r = rows.find((x) => (x.account ?? 'platform') === account);
    return {
      messages: Number(r?.messages ?? 0),
      segments: Number(r?.segments ?? 0),
      cost: r?.cost_cents == null ? null : fromCents(Number(r.cost_cents)),
    };
  };
  return { organisation: usage('organisation'), platform: usage('platform') };
}

export async function getSmsAccount(ctx: AuthedContext): Promise<SmsAccount> {
  requireRole(ctx, 'owner');
  const orgId = requireOrg(ctx);
  const org = (await findOrganisation(ctx.db, orgId))!;
  const own = Boolean(org.sms_provider && org.sms_api_key_enc);
  const platform = platformSmsAccount(ctx.config);
  const provider = own ? org.sms_provider : (platform?.provider ?? null);
  const { month, from, to } = await currentMonth(ctx, orgId);
  const usage = await smsUsage(ctx, orgId, from, to);
  const base = publicOrigin(ctx.config);
  // The URL is the account's own: derived from the key that sends, so a new key gives a new URL.
  const credentials = own ? await organisationSmsAccounts(ctx.db, ctx.keys, ctx.config)(orgId) : null;
  return {
    own_account: own,
    provider,
    sender_id: own ? org.sms_sender_id : (platform?.senderId ?? null),
    delivery_report_url: credentials
      ? `${base}${ctx.config.BASE_PATH}/sms/reports/${credentials.provider}/${organisationReportsToken(ctx.keys, orgId, credentials)}`
      : null,
    month,
    usage: { own_account: usage.organisation, platform: usage.platform },
  };
}

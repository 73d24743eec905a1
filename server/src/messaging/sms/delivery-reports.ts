/**
 * Delivery reports: what the gateway later says became of a message it accepted. Gateways that
 * post reports reach a public callback whose URL carries a token derived from the server's
 * secret (Beem and Africa's Talking sign nothing, so the URL is the secret); gateways that answer
 * only when asked are polled. A report settles a message once: `delivered` or `failed` is final.
 *
 * Every gateway account has a URL of its own, and a report touches only messages sent on the
 * account whose URL it came to: a gateway's message ids are its own account's, so a shop could
 * otherwise settle another shop's (or the platform's) messages by naming their ids. The platform's
 * token is derived per gateway; a shop's carries its organisation id and is derived from its id
 * and its gateway key, so saving a new key gives a new URL and the old one stops working.
 */
import type { SmsProviderName } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database, Transact } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { type Keys, safeEqual } from '../../lib/crypto.js';
import type { Lease } from '../../lib/leases.js';
import type { DeliveryReport, SentMessage, SmsCredentials, SmsProvider } from './sms-provider.js';

/**
 * A gateway that posts reports is asked only when none came for a quarter of an hour (a callback
 * URL not set in its dashboard); NextSMS, which posts none, after a minute. None once a message is
 * this old.
 */
const POLL_AFTER_MS: Partial<Record<SmsProviderName, number>> = { nextsms: 60_000 };
const POLL_AFTER_CALLBACK_MS = 15 * 60_000;
const POLL_WINDOW_MS = 3 * 86_400_000;
const POLL_BATCH = 100;

/** The gateway account messages went out on: the platform's, or one organisation's own. */
export type ReportScope = { account: 'platform' } | { account: 'organisation'; orgId: string };

/** The platform account's token (the operator's URL), per gateway. */
export const platformReportsToken = (keys: Keys, provider: SmsProviderName) => keys.digest(`sms-delivery-reports:${provider}`);

/** A shop's token: its organisation id, then a digest of that id, the gateway and the shop's key. */
export const organisationReportsToken = (keys: Keys, orgId: string, credentials: SmsCredentials) =>
  `${orgId}.${keys.digest(`sms-delivery-reports:${orgId}:${credentials.provider}:${credentials.apiKey}`)}`;

const ORG_TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[A-Za-z0-9_-]+$/;

/**
 * Whose account a callback token belongs to, or null for a token no account has. `organisationAccount`
 * opens the shop's current credentials; a shop whose gateway or key changed has a new token.
 */
export async function reportScopeOf(
  keys: Keys,
  provider: SmsProviderName,
  token: string,
  organisationAccount: (orgId: string) => Promise<SmsCredentials | null>,
): Promise<ReportScope | null> {
  const orgId = ORG_TOKEN.exec(token)?.[1];
  if (!orgId) return safeEqual(token, platformReportsToken(keys, provider)) ? { account: 'platform' } : null;
  const credentials = await organisationAccount(orgId);
  if (!credentials || credentials.provider !== provider) return null;
  return safeEqual(token, organisationReportsToken(keys, orgId, credentials)) ? { account: 'organisation', orgId } : null;
}

/**
 * Settle the messages these reports are about, among those sent on `scope`'s account; answers how
 * many changed. A report naming any other message changes nothing and is not told apart.
 */
export async function applyDeliveryReports(
  db: Kysely<Database>,
  clock: Clock,
  provider: SmsProviderName,
  scope: ReportScope,
  reports: DeliveryReport[],
): Promise<number> {
  let applied = 0;
  for (const r of reports) {
    if (r.state === 'pending') continue;
    let update = db
      .updateTable('outbox')
      .set({ delivery_status: r.state, delivery_detail: r.detail.slice(0, 300), delivered_at: clock.now() })
      .where('provider', '=', provider)
      .where('provider_message_id', '=', r.providerMessageId)
      .where('delivery_status', '=', 'pending')
      .where('account', '=', scope.account);
    if (scope.account === 'organisation') update = update.where('org_id', '=', scope.orgId);
    const res = await update.executeTakeFirst();
    applied += Number(res.numUpdatedRows);
  }
  return applied;
}

export interface PollOptions {
  db: Kysely<Database>;
  transact: Transact;
  /**
   * The job's lease, when run by the timer: only its holder asks the gateways, and what they answer
   * is applied only while it still holds it (a holder that stalled past it and woke late applies nothing).
   */
  lease?: Lease;
  clock: Clock;
  providers: Record<SmsProviderName, SmsProvider>;
  platform: SmsCredentials | null;
  organisationAccount(orgId: string): Promise<SmsCredentials | null>;
  timeoutMs: number;
}

/** Ask the gateways that report only when asked about messages still waiting for a report. */
export async function pollDeliveryReports(o: PollOptions): Promise<number> {
  const polled = (Object.keys(o.providers) as SmsProviderName[]).filter((p) => o.providers[p].fetchDeliveryReports);
  if (!polled.length) return 0;
  const now = o.clock.now();
  const rows = await o.db
    .selectFrom('outbox')
    .select(['provider', 'provider_message_id', 'recipient', 'account', 'org_id'])
    .where('delivery_status', '=', 'pending')
    .where((eb) =>
      eb.or(polled.map((p) => eb.and([eb('provider', '=', p), eb('sent_at', '<', now - (POLL_AFTER_MS[p] ?? POLL_AFTER_CALLBACK_MS))]))),
    )
    .where('sent_at', '>', now - POLL_WINDOW_MS)
    .orderBy('sent_at')
    .limit(POLL_BATCH)
    .execute();
  // One question per account: an organisation's messages are asked about with its own key.
  const byAccount = new Map<string, { provider: SmsProviderName; orgId: string | null; sent: SentMessage[] }>();
  for (const r of rows) {
    const orgId = r.account === 'organisation' ? r.org_id : null;
    const key = `${r.provider}:${orgId ?? ''}`;
    const entry = byAccount.get(key) ?? { provider: r.provider as SmsProviderName, orgId, sent: [] };
    entry.sent.push({ providerMessageId: r.provider_message_id!, to: r.recipient.replace(/^\+/, '') });
    byAccount.set(key, entry);
  }
  let applied = 0;
  for (const { provider, orgId, sent } of byAccount.values()) {
    const credentials = orgId ? await o.organisationAccount(orgId) : o.platform;
    if (!credentials || credentials.provider !== provider) continue;
    const reports = await o.providers[provider].fetchDeliveryReports!(credentials, sent, AbortSignal.timeout(o.timeoutMs));
    const scope: ReportScope = orgId ? { account: 'organisation', orgId } : { account: 'platform' };
    applied += await o.transact(async (trx) => {
      await o.lease?.fence(trx);
      return applyDeliveryReports(trx, o.clock, provider, scope, reports);
    });
  }
  return applied;
}

/**
 * Whose gateway account an SMS goes out on: the platform's from config, or an organisation's
 * own (its key and secret are stored sealed and opened only here, at delivery).
 */
import type { SmsProviderName } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Config } from '../../env.js';
import type { Keys } from '../../lib/crypto.js';
import type { SmsCredentials } from './sms-provider.js';

/** Where each gateway is reached: its live URL unless the operator points it elsewhere. */
export function gatewayUrls(config: Config): Partial<Record<SmsProviderName, string>> {
  return { beem: config.SMS_BEEM_URL, africastalking: config.SMS_AFRICASTALKING_URL, nextsms: config.SMS_NEXTSMS_URL };
}

export function platformSmsAccount(config: Config): SmsCredentials | null {
  if (config.SMS_PROVIDER === 'log') return null;
  return {
    provider: config.SMS_PROVIDER,
    apiKey: config.SMS_API_KEY!,
    secret: config.SMS_API_SECRET!,
    senderId: config.SMS_SENDER_ID!,
    baseUrl: gatewayUrls(config)[config.SMS_PROVIDER],
  };
}

export function organisationSmsAccounts(db: Kysely<Database>, keys: Keys, config: Config) {
  const urls = gatewayUrls(config);
  return async (orgId: string): Promise<SmsCredentials | null> => {
    const org = await db
      .selectFrom('organisations')
      .select(['sms_provider', 'sms_api_key_enc', 'sms_api_secret_enc', 'sms_sender_id'])
      .where('id', '=', orgId)
      .executeTakeFirst();
    if (!org?.sms_provider || !org.sms_api_key_enc || !org.sms_api_secret_enc || !org.sms_sender_id) return null;
    return {
      provider: org.sms_provider,
      apiKey: keys.decrypt(org.sms_api_key_enc),
      secret: keys.decrypt(org.sms_api_secret_enc),
      senderId: org.sms_sender_id,
      baseUrl: urls[org.sms_provider],
    };
  };
}

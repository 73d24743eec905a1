/**
 * The SMS gateways by name. Config and an organisation's settings name a provider
 * (`SmsProviderName`); the outbox looks its driver up here and passes the credentials per message.
 */
import type { SmsProviderName } from '@duka/shared';
import { africasTalkingProvider } from './africastalking.js';
import { beemProvider } from './beem.js';
import type { DriverOptions } from './http.js';
import { nextSmsProvider } from './nextsms.js';
import type { SmsProvider } from './sms-provider.js';

export { countSegments, type SmsSegments } from './segments.js';
export { DEFAULT_SMS_TIMEOUT_MS, type DriverOptions } from './http.js';
export * from './sms-provider.js';

export function createSmsProviders(options: DriverOptions = {}): Record<SmsProviderName, SmsProvider> {
  return { beem: beemProvider(options), africastalking: africasTalkingProvider(options), nextsms: nextSmsProvider(options) };
}

export const smsProviders = createSmsProviders();

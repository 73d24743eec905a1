/**
 * A collection account's driver: billing's AzamPay or Selcom driver, built from the account's own
 * credentials and callback URL instead of the platform's. Credentials are opened here only, when
 * a driver is needed, and never leave it. Test mode is AzamPay's sandbox; Selcom documents no
 * separate sandbox host, so its test mode only marks the account (the operator's SELCOM_URL is used).
 */
import type { AzamPayCredentials, CollectionProvider, SelcomCredentials } from '@duka/shared';
import { type Config, publicOrigin } from '../../../env.js';
import type { Keys } from '../../../lib/crypto.js';
import type { CollectionAccountRow } from '../../../db/tables/collection.table.js';
import { AZAMPAY_SANDBOX, azamPayProvider, type PaymentProvider, selcomProvider } from '../../billing/billing.exports.js';

/** The URL to paste in the provider's dashboard; the token is the account's only callback credential. */
export const callbackUrlOf = (config: Config, accountId: string, token: string) =>
  `${publicOrigin(config)}${config.BASE_PATH}/payments/callbacks/${accountId}?token=${encodeURIComponent(token)}`;

/** The short non-secret part shown to tell accounts apart. */
export function credentialsHint(provider: CollectionProvider, credentials: AzamPayCredentials | SelcomCredentials): string {
  const id = provider === 'azampay' ? (credentials as AzamPayCredentials).clientId : (credentials as SelcomCredentials).apiKey;
  return id.length > 8 ? id.slice(-4) : '';
}

export function collectionDriver(config: Config, keys: Keys, account: CollectionAccountRow): PaymentProvider {
  const token = keys.decrypt(account.callback_token_enc);
  const timeoutMs = config.PAYMENT_TIMEOUT_MS;
  if (account.provider === 'selcom') {
    const c = JSON.parse(keys.decrypt(account.credentials_enc)) as SelcomCredentials;
    return selcomProvider({ ...c, baseUrl: config.SELCOM_URL, webhookUrl: callbackUrlOf(config, account.id, token), timeoutMs });
  }
  const c = JSON.parse(keys.decrypt(account.credentials_enc)) as AzamPayCredentials;
  const urls =
    account.test_mode === 1 ? AZAMPAY_SANDBOX : { authBaseUrl: config.AZAMPAY_AUTH_URL, checkoutBaseUrl: config.AZAMPAY_CHECKOUT_URL };
  return azamPayProvider({ ...c, ...urls, callbackToken: token, timeoutMs });
}

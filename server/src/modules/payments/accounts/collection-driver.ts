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
import { AZAMPAY_SANDBOX, azamPayProvider } from '../../../mobile-money/azampay.js';
import type { PaymentProvider } from '../../../mobile-money/provider.js';
import { selcomProvider } from '../../../mobile-money/selcom.js';

/** The URL to paste in the provider's dashboard; the token is the account's only callback credential. */
export const callbackUrlOf = (config: Config, accountId: string, token: string) =>
  `${publicOrigin(config)}${config.BASE_PATH}/payments/callbacks/${accountId}?token=${encodeURIComponent(token)}`;

/** The short non-secret part shown to tell accounts apart. */
export function credentialsHint(provider: CollectionProvider, credentials: AzamPayCredentials | SelcomCredentials): string {
  const id = provider === 'azampay' ? (credentials as AzamPayCredentials).clientId : (credentials as SelcomCredentials).apiKey;
  return id.length > 8 ? id.slice(-4) : '';
}

/** Drivers kept by account, per server (its config), so an AzamPay account's access token is reused until it expires. */
const kept = new WeakMap<Config, Map<string, { fingerprint: string; driver: PaymentProvider }>>();
/** Accounts whose drivers are kept at once; the oldest is dropped past this (a new token next time). */
const KEPT = 1_000;

/**
 * The account's driver. AzamPay's driver holds the access token it took, as billing's does, so a
 * push does not ask for a new token each time; the driver is built again when the account's
 * credentials, callback token or mode change (its fingerprint: the sealed values, never opened here).
 */
export function collectionDriver(config: Config, keys: Keys, account: CollectionAccountRow): PaymentProvider {
  const fingerprint = [account.provider, account.test_mode, account.credentials_enc, account.callback_token_enc].join('|');
  let drivers = kept.get(config);
  if (!drivers) kept.set(config, (drivers = new Map()));
  const known = drivers.get(account.id);
  if (known?.fingerprint === fingerprint) return known.driver;
  const driver = buildDriver(config, keys, account);
  drivers.delete(account.id);
  if (drivers.size >= KEPT) drivers.delete(drivers.keys().next().value!);
  drivers.set(account.id, { fingerprint, driver });
  return driver;
}

function buildDriver(config: Config, keys: Keys, account: CollectionAccountRow): PaymentProvider {
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

/**
 * The provider of subscription payments (the shop paying Duka, into the platform's account): the
 * mobile-money driver the server was configured with (PAYMENT_PROVIDER), built once in app.ts.
 */
import { type Config, publicOrigin } from '../../../env.js';
import { azamPayProvider } from '../../../mobile-money/azampay.js';
import type { PaymentProvider } from '../../../mobile-money/provider.js';
import { selcomProvider } from '../../../mobile-money/selcom.js';
import { unconfiguredProvider } from './unconfigured-provider.js';

export function paymentProviderFromConfig(config: Config): PaymentProvider {
  if (config.PAYMENT_PROVIDER === 'selcom') {
    const origin = publicOrigin(config);
    return selcomProvider({
      apiKey: config.SELCOM_API_KEY!,
      apiSecret: config.SELCOM_API_SECRET!,
      vendor: config.SELCOM_VENDOR!,
      baseUrl: config.SELCOM_URL,
      webhookUrl: `${origin}${config.BASE_PATH}/subscriptions/callbacks/selcom`,
      timeoutMs: config.PAYMENT_TIMEOUT_MS,
    });
  }
  if (config.PAYMENT_PROVIDER !== 'azampay') return unconfiguredProvider;
  return azamPayProvider({
    appName: config.AZAMPAY_APP_NAME!,
    clientId: config.AZAMPAY_CLIENT_ID!,
    clientSecret: config.AZAMPAY_CLIENT_SECRET!,
    apiKey: config.AZAMPAY_API_KEY!,
    callbackToken: config.AZAMPAY_CALLBACK_TOKEN!,
    authBaseUrl: config.AZAMPAY_AUTH_URL,
    checkoutBaseUrl: config.AZAMPAY_CHECKOUT_URL,
    timeoutMs: config.PAYMENT_TIMEOUT_MS,
  });
}

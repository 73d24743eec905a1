/** The payment provider the server was configured with (PAYMENT_PROVIDER), built once in app.ts. */
import { type Config, publicOrigin } from '../../../env.js';
import { unconfiguredPayments } from '../services/unconfigured-payments.js';
import { azamPayProvider } from './azampay.js';
import type { PaymentProvider } from './payment-provider.js';
import { selcomProvider } from './selcom.js';

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
  if (config.PAYMENT_PROVIDER !== 'azampay') return unconfiguredPayments;
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

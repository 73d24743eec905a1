/** The payment provider the server was configured with (PAYMENT_PROVIDER), built once in app.ts. */
import type { Config } from '../../../env.js';
import { unconfiguredPayments } from '../services/unconfigured-payments.js';
import { azamPayProvider } from './azampay.js';
import type { PaymentProvider } from './payment-provider.js';

export function paymentProviderFromConfig(config: Config): PaymentProvider {
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

/**
 * The payment provider when none is configured: `npm start` needs nothing, and a checkout says
 * plainly that mobile money is off instead of waiting for a payment that cannot come.
 */
import { CallbackRejected, type PaymentProvider, PaymentRejected } from '../../../mobile-money/provider.js';

export const unconfiguredProvider: PaymentProvider = {
  name: 'none',
  startPush: async () => {
    throw new PaymentRejected('mobile-money payments are not configured on this server', true);
  },
  parseCallback: () => {
    throw new CallbackRejected('no payment provider is configured');
  },
  queryStatus: async (reference) => ({
    reference,
    providerRef: null,
    outcome: 'failed',
    amountTzs: null,
    detail: 'no payment provider is configured',
  }),
};

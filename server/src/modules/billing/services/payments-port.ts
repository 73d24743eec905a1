/**
 * Where billing finds the payment provider: a dependency that app.ts builds (AppDeps.payments) and
 * every request and job context carries. It is not in lib/context.ts's Deps, because lib/ may not
 * import from modules/ (test/project/architecture.test.ts) and the provider interface lives in billing.
 */
import type { ServiceContext } from '../../../lib/context.js';
import type { PaymentProvider } from '../providers/payment-provider.js';

export interface PaymentsDeps {
  payments: PaymentProvider;
}

export function paymentsOf(ctx: ServiceContext): PaymentProvider {
  const provider = (ctx as ServiceContext & Partial<PaymentsDeps>).payments;
  if (!provider) throw new Error('no payment provider in the context: createDeps (app.ts) sets deps.payments');
  return provider;
}

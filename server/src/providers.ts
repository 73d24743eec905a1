/**
 * What the areas provide to every service context, in one place: each member of lib/context.ts's
 * `Providers` below, its type imported from the area's exports file. lib/ may not import modules/,
 * so the interface is empty there and filled here by declaration merging (as Hono's
 * ContextVariableMap is extended); `createDeps` (app.ts) builds each member, and fails to compile
 * if it forgets one. A new port is one line here and one in `createDeps`.
 */
import type { PaymentProvider } from './mobile-money/provider.js';
import type { FiscalQueuePort, TraGateway } from './modules/fiscal/fiscal.exports.js';
import type { ReorderAdvice } from './modules/notifications/notifications.exports.js';
import type { SaleBooking, SaleVerificationPort } from './modules/payments/payments.exports.js';

declare module './lib/context.js' {
  interface Providers {
    /** Where subscription payments are pushed and their callbacks checked (billing: AzamPay, Selcom, or the fake). */
    subscriptionPayments: PaymentProvider;
    /** Fiscal receipts waiting for TRA, sent by the queue after the sale's commit (fiscal's `FiscalQueue`). */
    fiscal: FiscalQueuePort;
    /** TRA's VFD endpoints: registration, token, receipts (fiscal's `traVfd`). */
    tra: TraGateway;
    /** The sale's rules for payment requests: declared by payments, implemented by pos (`posSaleBooking`). */
    saleBooking: SaleBooking;
    /** Offline mobile-money sales matched to the payments their provider reported (payments' `SaleVerifier`, issue 38). */
    saleVerification: SaleVerificationPort;
    /** A low-stock notification's suggested order: declared by notifications, implemented by inventory (`reorderAdvice`, the reorder rule). */
    reorderAdvice: ReorderAdvice;
  }
}

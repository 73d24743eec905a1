/**
 * The sale-verification port: the sale's write (pos) hands payments its just-written offline
 * mobile-money sales, to be matched to the payments already received after the answer. pos ranks
 * above payments and could import a function, but the queue is built once per server (it outlives
 * any one request), so it is a member of every service context, as the realtime hub is.
 *
 * - Declared here; listed in server/src/providers.ts, the one place that fills lib/context.ts's Providers.
 * - Implemented here too: `SaleVerifier` in verify-sales.ts (offered by payments.exports.ts).
 * - Wired once, in app.ts's `createDeps` (`deps.saleVerification = new SaleVerifier(deps)`).
 * - Used by pos: `tx.saleVerification.soon(…)` after the commit in modules/pos/sale/write-sale.ts (`checkPaymentsLater`).
 *
 * docs/architecture.md ("Ports") lists every port of the server this way.
 */

export interface SaleVerificationPort {
  /** Match these sales to the payments already received, after the answer; returns at once. */
  soon(orgId: string, saleIds: string[]): void;
}

/**
 * Matching a written sale to its payment, as a typed member of every service context
 * (`ctx.saleVerification`): app.ts builds it (`SaleVerifier`) and server/src/providers.ts lists it
 * in lib/context.ts's Providers, so the sale's write (pos) queues its unverified sales without lib/
 * importing modules/.
 */
export interface SaleVerificationPort {
  /** Match these sales to the payments already received, after the answer; returns at once. */
  soon(orgId: string, saleIds: string[]): void;
}

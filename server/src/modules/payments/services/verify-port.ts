/**
 * Matching a written sale to its payment, as a typed member of every service context: app.ts
 * builds it (`SaleVerifier`) and the declaration below adds it to lib/context.ts's Providers, so
 * the sale's write (pos) queues its unverified sales without lib/ importing modules/.
 */

export interface SaleVerificationPort {
  /** Match these sales to the payments already received, after the answer; returns at once. */
  soon(orgId: string, saleIds: string[]): void;
}

declare module '../../../lib/context.js' {
  interface Providers {
    /** Offline mobile-money sales matched to the payments their provider reported (issue 38). */
    saleVerification: SaleVerificationPort;
  }
}

/** What payments offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { collectsFor } from './accounts/collection-accounts.queries.js';
export type { HeldSale, SaleBooking, SaleHold, SaleQuote } from './requests/sale-booking-port.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { paymentsRouter } from './payments.index.js';
export { runPaymentMatching } from './inbox/matching-job.js';
export { runPaymentRequestJobs } from './requests/request-jobs.js';
export type { SaleVerificationPort } from './inbox/sale-verification-port.js';
export { SaleVerifier } from './inbox/verify-sales.js';

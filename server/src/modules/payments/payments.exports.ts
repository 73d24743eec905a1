/** What payments offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { collectionDriver } from './services/collection-driver.js';
export type { HeldSale, SaleBooking, SaleHold, SaleQuote } from './services/sale-booking.js';
export { collectsFor } from './payments.queries.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { paymentsRouter } from './payments.index.js';
export { runPaymentMatching } from './services/matching-job.js';
export { runPaymentRequestJobs } from './services/request-jobs.js';
export type { SaleVerificationPort } from './services/verify-port.js';
export { SaleVerifier } from './services/verify-sales.js';

/** What payments offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { collectsFor } from './accounts/collection-accounts.queries.js';
export { runPaymentMatching } from './inbox/matching-job.js';
export { SaleVerifier } from './inbox/verify-sales.js';
export { paymentsRouter } from './payments.index.js';
export { runPaymentRequestJobs } from './requests/request-jobs.js';
export type { HeldSale, SaleBooking, SaleHold, SaleQuote } from './requests/sale-booking-port.js';

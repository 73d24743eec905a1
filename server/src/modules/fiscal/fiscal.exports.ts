/** What fiscal offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { fiscalByTransaction, toFiscal } from './services/receipt-view.js';
export { numberFiscalReceipts } from './services/numbering.js';
export { saleHasReceipt } from './fiscal.queries.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { fiscalRouter } from './fiscal.index.js';
export type { FiscalQueuePort } from './services/fiscal-port.js';
export { releaseDeadClaims, runFiscalJobs } from './services/jobs.js';
export { FiscalQueue } from './services/queue.js';
export type { TraGateway } from './tra/tra-gateway.js';
export { traVfd } from './tra/tra-vfd.js';

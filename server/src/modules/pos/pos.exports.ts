/** What pos offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { saleExtras, transactionMatches, withLines } from './pos.queries.js';
export { posSaleBooking } from './services/held-sale.js';
export { priceLines } from './sale/price-lines.js';
export { recordSales, type SaleRequest } from './sale/pipeline.js';
export { deferSaleStock, writeDeferredStock } from './sale/deferred-stock.js';
export { readScaleLabels, type ScaleLabels } from './sale/scale-labels.js';
export { posSummary } from './services/transactions.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { posRouter } from './pos.index.js';
export { refundSale, voidSale } from './services/sale-state.js';
export { payTabFromRefund } from './services/exchange.js';

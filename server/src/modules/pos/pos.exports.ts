/** What pos offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { transactionMatches, withLines } from './pos.queries.js';
export { posSaleBooking } from './services/held-sale.js';
export { pricingOf } from './sale/price-lines.js';
export { recordSales, type SaleRequest } from './sale/pipeline.js';
export { posSummary } from './services/transactions.js';

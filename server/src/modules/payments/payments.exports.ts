/** What payments offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { collectionDriver } from './services/collection-driver.js';
export type { HeldSale, SaleBooking, SaleHold, SaleQuote } from './services/sale-booking.js';

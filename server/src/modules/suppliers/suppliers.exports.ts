/** What suppliers offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toDeliveries } from './deliveries.queries.js';
export { orgPayments, toPayments } from './supplier-payments.queries.js';
export { outstandingOf, owing, toSupplier } from './suppliers.queries.js';
export { listPurchaseOrders } from './purchase-orders/purchase-orders.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { suppliersRouter } from './suppliers.index.js';

/** What suppliers offers the areas ranked above it (docs/architecture.md): they import this file, never suppliers's own. */
export { orgPayments, outstandingOf, owing, toDeliveries, toPayments, toSupplier } from './suppliers.queries.js';

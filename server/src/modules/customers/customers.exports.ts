/** What customers offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { outstandingOf, owingTabs, pastDue, tabBalance, toCustomer } from './customers.queries.js';
export { listCustomerCredits } from './services/customer-credits.js';
export { orgToday, requireCustomer } from './services/scope.js';

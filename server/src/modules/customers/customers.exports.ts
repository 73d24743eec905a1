/** What customers offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { outstandingOf, owingTabs, pastDue, tabBalance, toCustomer } from './customers.queries.js';
export { listCustomerCredits } from './services/customer-credits.js';
export { orgToday, requireCustomer } from './services/scope.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { customersRouter } from './customers.index.js';
export { customersWithBalance, findCustomer } from './customers.queries.js';
export { customerStatsSubscriber } from './services/customer-stats.js';
export { createCustomer, updateCustomer } from './services/customers.js';

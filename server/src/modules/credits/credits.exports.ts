/** What credits offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { outstandingByCustomer, toCreditTab } from './credits.queries.js';
export { cancelCreditTab, newCreditTab, openCreditTabs, reduceCreditTab, tabForTransaction } from './services/tabs.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { creditsRouter } from './credits.index.js';
export { tabsWithNames } from './credits.queries.js';
export { recordCreditPayment } from './services/credit-payments.js';

/** What billing offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { startOnFree } from './billing.queries.js';
export { billingFigures, listAdminSubscriptions } from './services/admin-billing.js';
export { aiCreditAllowance, checkPlanAllows, planAiCredits, planInForce, refuseUnlessAllowed } from './services/limits.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { billingRouter } from './billing.index.js';
export { paymentProviderFromConfig } from './services/subscription-provider.js';
export { runBillingJobs } from './services/billing-jobs.js';

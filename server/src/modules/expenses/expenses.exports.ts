/** What expenses offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toExpense } from './expenses.queries.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { expensesRouter } from './expenses.index.js';
export { createExpense } from './services/expenses.js';

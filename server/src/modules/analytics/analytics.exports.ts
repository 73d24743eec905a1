/** What analytics offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { bestProducts, rollupRange } from './services/summary.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { analyticsRouter } from './analytics.index.js';

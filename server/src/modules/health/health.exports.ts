/** What health offers the server's wiring (app.ts, background-jobs.ts, index.ts, cli/) and sync/ (docs/architecture.md): they import this file, never the area's other files. */
export { healthRouter } from './health.index.js';
export { metricsRouter } from './metrics.index.js';

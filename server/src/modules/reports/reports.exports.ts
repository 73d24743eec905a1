/** What reports offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { type Period, periodOf } from './services/range.js';
export type { Column } from './services/report-specs.js';
export { csvText, writeCsv } from './services/write-report.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { reportsRouter } from './reports.index.js';
export { runScheduledReports } from './services/scheduler.js';

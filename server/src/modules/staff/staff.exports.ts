/** What staff offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { updateStaff } from './services/update-staff.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { staffRouter } from './staff.index.js';

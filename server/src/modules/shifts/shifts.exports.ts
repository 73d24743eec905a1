/** What shifts offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { closeShift } from './services/close-shift.js';
export { openShift } from './services/open-shift.js';
export { findStoreShift } from './shifts.queries.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { shiftsRouter } from './shifts.index.js';

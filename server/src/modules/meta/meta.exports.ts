/** What meta offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { normaliseLocation } from './meta.data.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { metaRouter } from './meta.index.js';

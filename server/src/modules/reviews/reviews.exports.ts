/** What reviews offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toStoreReview } from './reviews.queries.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { reviewsRouter } from './reviews.index.js';

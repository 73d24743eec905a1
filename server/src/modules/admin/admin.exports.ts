/** What admin offers the server's wiring (app.ts, background-jobs.ts, index.ts, cli/) and sync/ (docs/architecture.md): they import this file, never the area's other files. */
export { adminRouter } from './admin.index.js';
export { createPlatformAdmin } from './create-admin.js';

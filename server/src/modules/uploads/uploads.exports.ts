/** What uploads offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { type FileAddress, findOrgUploadByFileName, findUploadByKey, keyUrl } from './uploads.queries.js';
export { isPublicKind } from './services/file-access.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { uploadsRouter } from './uploads.index.js';

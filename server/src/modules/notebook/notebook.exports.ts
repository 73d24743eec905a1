/** What notebook offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toNote } from './notebook.queries.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { notebookRouter } from './notebook.index.js';
export { storeNotes, toSyncNote } from './notebook.queries.js';
export { applyNoteUpdate } from './services/notes.js';

/** What accounts offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { UNLIMITED_AI_CREDITS, getAiCredits } from './services/ai-credits.js';
export { createOrgUser, deactivateUser, resetToTemporaryPassword } from './services/users.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { accountsRouter } from './accounts.index.js';

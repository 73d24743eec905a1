/** What auth offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { assertIdentityFree, rethrowDuplicate } from './services/register.js';
export { sendConfirmationEmail } from './services/session.js';
export { issueTokens, revokeAllForUser } from './services/tokens.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { authRouter } from './auth.index.js';
export { pruneAuthCounters } from './services/sign-in-guard.js';

/** What auth offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { assertIdentityFree, rethrowDuplicate } from './services/register.js';
export { sendConfirmationEmail } from './services/session.js';
export { issueTokens, revokeAllForUser } from './services/tokens.js';

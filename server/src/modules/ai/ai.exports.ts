/** What ai offers the server's wiring (app.ts, background-jobs.ts, index.ts, cli/) and sync/ (docs/architecture.md): they import this file, never the area's other files. */
export { aiRouter } from './ai.index.js';
export { pruneAgentState } from './services/agent-state-prune.js';

/** What stores offers the areas ranked above it (docs/architecture.md): they import this file, never stores's own. */
export { updateStore } from './services/write-store.js';

/** What meta offers the areas ranked above it (docs/architecture.md): they import this file, never meta's own. */
export { normaliseLocation } from './meta.data.js';

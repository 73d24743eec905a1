/** What analytics offers the areas ranked above it (docs/architecture.md): they import this file, never analytics's own. */
export { bestProducts, rollupRange } from './services/summary.js';

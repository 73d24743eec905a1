/** What analytics offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { bestProducts, rollupRange } from './services/summary.js';

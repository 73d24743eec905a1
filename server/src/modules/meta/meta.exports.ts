/** What meta offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { normaliseLocation } from './meta.data.js';

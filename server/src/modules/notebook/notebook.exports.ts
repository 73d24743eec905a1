/** What notebook offers the areas ranked above it (docs/architecture.md): they import this file, never notebook's own. */
export { toNote } from './notebook.queries.js';

/** What notebook offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toNote } from './notebook.queries.js';

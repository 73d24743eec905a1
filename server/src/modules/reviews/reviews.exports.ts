/** What reviews offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toStoreReview } from './reviews.queries.js';

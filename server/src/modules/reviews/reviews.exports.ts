/** What reviews offers the areas ranked above it (docs/architecture.md): they import this file, never reviews's own. */
export { toStoreReview } from './reviews.queries.js';

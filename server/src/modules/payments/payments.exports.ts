/** What payments offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { collectionDriver } from './services/collection-driver.js';
export { collectsFor } from './payments.queries.js';

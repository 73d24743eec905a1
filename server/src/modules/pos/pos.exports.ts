/** What pos offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { transactionMatches, withLines } from './pos.queries.js';
export { posSummary } from './services/transactions.js';

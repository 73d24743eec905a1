/** What pos offers the areas ranked above it (docs/architecture.md): they import this file, never pos's own. */
export { transactionMatches, withLines } from './pos.queries.js';
export { posSummary } from './services/transactions.js';

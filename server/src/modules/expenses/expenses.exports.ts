/** What expenses offers the areas ranked above it (docs/architecture.md): they import this file, never expenses's own. */
export { toExpense } from './expenses.queries.js';

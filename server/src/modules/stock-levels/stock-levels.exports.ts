/** What stock-levels offers the areas ranked above it (docs/architecture.md): they import this file, never stock-levels's own. */
export { changeStockLevel } from './stock-levels.js';

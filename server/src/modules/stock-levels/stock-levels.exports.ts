/** What stock-levels offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { changeStockLevel, insertMissingStockRows, MAX_STOCK } from './stock-levels.js';
export { countOf, countText, quantitySaid } from './quantity.js';
export { itemsOf, lineCost, lineItems, productUnit } from './unit-rules.js';
export { keptCounts, refundedOfLine } from './kept-lines.js';
export { soldSalesOfStore } from './sold-sales.js';

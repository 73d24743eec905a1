/** What inventory offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { orgProductsById, productIdsOnDefaultAlert, recordPrice, toCategory, toProducts } from './inventory.queries.js';
export { orgPacksById, packsOf } from './packs.queries.js';
export { reorderStore, reorderSuggestions } from './reorder/reorder-suggestions.js';
export { createCategory, deleteCategory, updateCategory } from './services/categories.js';
export { listProducts } from './services/list-products.js';
export { updateProduct } from './services/products.js';
export { insertAdjustment, listLowStock } from './services/stock.js';
export { getStockTake, listStockTakes } from './stock-takes/stock-takes.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { inventoryRouter } from './inventory.index.js';
export { productsWithStock } from './inventory.queries.js';
export { reorderAdvice } from './reorder/reorder-suggestions.js';
export { adjustStock } from './services/stock.js';
export { recordStockTakeCounts } from './stock-takes/stock-takes.js';

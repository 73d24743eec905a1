/** What fiscal offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { fiscalByTransaction, toFiscal } from './services/receipt-view.js';
export { numberFiscalReceipts } from './services/numbering.js';

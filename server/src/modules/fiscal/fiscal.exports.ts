/** What fiscal offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { fiscalByTransaction, toFiscal } from './fiscal.queries.js';
export { numberFiscalReceipts } from './services/numbering.js';

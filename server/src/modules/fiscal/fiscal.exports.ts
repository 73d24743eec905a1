/** What fiscal offers the areas ranked above it (docs/architecture.md): they import this file, never fiscal's own. */
export { fiscalByTransaction, toFiscal } from './fiscal.queries.js';
export { numberFiscalReceipts } from './services/numbering.js';

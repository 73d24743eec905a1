/**
 * The till's sale in its stages, named and ordered as `SALE_STAGES` in `@duka/shared` and as the
 * server's pipeline, so a rule is changed in one stage on both sides. `sell` runs them in order.
 */
import { assignShift } from './assign-shift.js';
import { checkRules } from './check-rules.js';
import { numberSale } from './number-sale.js';
import { priceLines } from './price-lines.js';
import { resolveLines } from './resolve-lines.js';
import { settleTender } from './settle-tender.js';
import { takeStock } from './take-stock.js';
import { writeSale } from './write-sale.js';

export const saleStages = {
  resolveLines,
  checkRules,
  priceLines,
  settleTender,
  takeStock,
  assignShift,
  numberSale,
  writeSale,
};

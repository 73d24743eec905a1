/**
 * Stage `writeSale`: the planned sales' rows written, a batch of them in one go (their statements do
 * not grow with the number of sales): services/sale-write.ts, kept where the push's write work is done.
 */
export { writeSales as writeSale } from '../services/sale-write.js';

/**
 * `numberSale`: the till's own receipt number, `{store code}-{till code}-{till seq}`, and the
 * queue seq. Both counters were moved with the sale's read (`sale-read.ts`: one round trip less in
 * the browser), inside its transaction; this stage names them. The server gives the sale its store
 * number when pushed.
 */
import { tillReceiptNumber } from '@duka/shared';
import type { ResolvedSale, SaleNumber } from './draft.js';

export function numberSale({ shop, counters }: ResolvedSale): SaleNumber {
  return { clientReceiptNumber: tillReceiptNumber(shop.store.code, shop.tillCode, counters.receipt_seq), seq: counters.last_seq };
}

/**
 * `numberSale`: the till's own receipt number, `{store code}-{till code}-{till seq}`, and the
 * queue seq, both taken in one statement. The server gives the sale its store number when pushed.
 */
import { tillReceiptNumber } from '@duka/shared';
import type { LocalTrx } from '../../local/db.js';
import { nextCounters } from '../../local/meta.js';
import type { Shop } from '../context.js';
import type { SaleNumber } from './draft.js';

export async function numberSale(trx: LocalTrx, shop: Shop): Promise<SaleNumber> {
  const counters = await nextCounters(trx, ['receipt_seq', 'last_seq']);
  return { clientReceiptNumber: tillReceiptNumber(shop.store.code, shop.tillCode, counters.receipt_seq), seq: counters.last_seq };
}

/**
 * Stage `numberSale`: the store's next receipt number, gapless (the store row is locked from the
 * set's read to the commit, and a refused sale takes none). A fiscalising store's TRA receipt
 * numbers are taken as the sales are written (`writeSale`).
 */
import { storeReceiptNumber } from '@duka/shared';
import type { SaleDraft } from './sale-plan.js';

export interface SaleNumber {
  number: number;
  /** `<store code>-000042`. */
  receiptNumber: string;
}

export function numberSale(sale: SaleDraft): SaleNumber {
  const { store } = sale.set;
  const number = store.last_number + 1;
  return { number, receiptNumber: storeReceiptNumber(store.code, number) };
}

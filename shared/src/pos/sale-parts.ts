/**
 * Small pure parts of a sale that the server's stages and the till's both compute (issue 50), so
 * each is written once: the status a payment method gives a sale, its receipt numbers, and how the
 * sale's customer was found for `checkSale`.
 */
import type { PaymentMethod } from '../payment-methods.js';
import type { SaleCheckInput } from './sale-rules.js';

/** A credit sale is owed until paid; every other payment method has been paid at the counter. */
export function saleStatusOf(method: PaymentMethod): 'credit' | 'paid' {
  return method === 'Credit' ? 'credit' : 'paid';
}

/** The store's gapless receipt number the server gives a sale: `{store code}-{number, six digits}`. */
export function storeReceiptNumber(storeCode: string, number: number): string {
  return `${storeCode}-${String(number).padStart(6, '0')}`;
}

/** The till's own receipt number, printed before the server numbers the sale: `{store code}-{till code}-{till seq}`. */
export function tillReceiptNumber(storeCode: string, tillCode: string, seq: number): string {
  return `${storeCode}-${tillCode}-${seq}`;
}

/** How the sale's customer was found: the id asked for and not found is a breach; no customer is none. */
export function customerLookup(askedId: string | undefined, found: unknown): SaleCheckInput['customer'] {
  if (found) return 'found';
  return askedId ? 'not_found' : 'none';
}

/**
 * Cash tendered and change (issue 37): the one rule behind `POST /pos/sale`, the push of a till's
 * sale and the till's own `sell`. Amounts are integer cents.
 *
 * - Only a cash sale takes `cash_tendered`: an M-Pesa or credit sale has no notes to count.
 * - The cash handed over covers the total; the change is what is left (`changeFor`).
 * - The change is at most `MAX_CHANGE`, ten of the largest note: more is a slip of the keyboard
 *   (an extra zero, a tender typed into the wrong field), not notes a customer hands over.
 *
 * The till refuses a short tender when the sale is rung up, so a sale it queued always passes here
 * when pushed: the push judges the tender against the total at the till's own prices (what the
 * cashier counted against), never against a total the server re-priced.
 */
import { formatTzs } from '../money.js';
import type { PaymentMethod } from '../payment-methods.js';

/** The notes a Tanzanian customer hands over (TZS 1,000 to 10,000), in cents. */
export const TZS_NOTES = [100_000, 200_000, 500_000, 1_000_000] as const;

/** A tender the sale may not carry: `field` is always `cash_tendered`. */
export interface TenderBreach {
  code: 'VALIDATION_ERROR';
  field: 'cash_tendered';
  message: string;
}

export interface TenderInput {
  payment_method: PaymentMethod;
  /** The sale's total, cents. */
  total: number;
  /** The cash handed over, cents; undefined when the cashier did not say. */
  cash_tendered?: number;
}

/** The most change a tender may leave, cents: ten TZS 10,000 notes (TZS 100,000). */
export const MAX_CHANGE = 10 * TZS_NOTES[3];

export function checkTender(input: TenderInput): TenderBreach | undefined {
  if (input.cash_tendered === undefined) return undefined;
  const breach = (message: string): TenderBreach => ({ code: 'VALIDATION_ERROR', field: 'cash_tendered', message });
  if (input.payment_method !== 'Cash') return breach('is only for a cash sale');
  if (input.cash_tendered < input.total)
    return breach(`${formatTzs(input.cash_tendered)} is less than the sale's total of ${formatTzs(input.total)}`);
  if (input.cash_tendered - input.total > MAX_CHANGE)
    return breach(
      `${formatTzs(input.cash_tendered)} would leave ${formatTzs(input.cash_tendered - input.total)} in change, more than ${formatTzs(MAX_CHANGE)} (ten of the largest note): check the amount`,
    );
  return undefined;
}

/** The change for `tendered` cents on a sale of `total` cents; a short tender is a caller's bug (checkTender first). */
export function changeFor(total: number, tendered: number): number {
  if (!Number.isInteger(total) || !Number.isInteger(tendered)) throw new RangeError('amounts must be whole cents');
  if (tendered < total) throw new RangeError('the tender does not cover the total');
  return tendered - total;
}

/**
 * The amounts a cashier is most likely handed for a sale of `total` cents, smallest first: the
 * exact total, then the total rounded up to each note (12,300 → 13,000, 14,000, 15,000, 20,000).
 * The till's quick-amount buttons show them.
 */
export function quickTenders(total: number): number[] {
  if (!Number.isInteger(total) || total < 0) throw new RangeError('total must be whole cents, not negative');
  const amounts = new Set<number>([total]);
  for (const note of TZS_NOTES) amounts.add(Math.max(1, Math.ceil(total / note)) * note);
  return [...amounts].sort((a, b) => a - b);
}

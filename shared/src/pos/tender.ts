/**
 * Cash tendered and change (issue 37): the one rule behind `POST /pos/sale`, the push of a till's
 * sale and the till's own `sell`. Amounts are integer cents.
 *
 * - Only a cash sale takes `cash_tendered`: an M-Pesa or credit sale has no notes to count.
 * - The cash handed over covers the total; the change is what is left (`changeFor`).
 * - The change is at most `MAX_CHANGE`, ten of the largest note: more is a slip of the keyboard
 *   (an extra zero, a tender typed into the wrong field), not notes a customer hands over.
 *
 * Split tender (issue 51): a sale paid several ways (`payments`, `splitTender`) follows the same
 * rule per part: the parts add up to the total, except that the cash part may exceed what the other
 * parts leave (its change, at most `MAX_CHANGE`); a part is what it pays towards the total, so a
 * sale's parts always add up to it exactly.
 *
 * The till refuses a short tender when the sale is rung up, so a sale it queued always passes here
 * when pushed: the push judges the tender against the total at the till's own prices (what the
 * cashier counted against), never against a total the server re-priced.
 */
import { formatTzs } from '../money.js';
import type { PaymentMethod, SaleMethod } from '../payment-methods.js';

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

/** One part of a sale's payment, cents: what it pays towards the total (a cash part net of change). */
export interface TenderPart {
  method: PaymentMethod;
  amount: number;
  reference: string | null;
  phone: string | null;
}

/** A part as the cashier gave it, cents (a cash part: what was handed over). */
export interface TenderPartInput {
  method: PaymentMethod;
  amount: number;
  reference?: string;
  phone?: string;
}

/** How a sale paid several ways settles: its parts, and the cash handed over and its change (null without cash). */
export interface SplitTender {
  parts: TenderPart[];
  tendered: number | null;
  change: number | null;
}

/** Parts that cannot pay the sale: `field` is always `payments`. */
export interface PaymentsBreach {
  code: 'VALIDATION_ERROR';
  field: 'payments';
  message: string;
}

const sum = (parts: Array<{ amount: number }>) => parts.reduce((s, p) => s + p.amount, 0);
const part = (p: TenderPartInput, amount = p.amount): TenderPart => ({
  method: p.method,
  amount,
  reference: p.reference ?? null,
  phone: p.phone ?? null,
});

/**
 * The parts of a sale of `total` cents (`payments`, each method once, amounts above 0: the schema's):
 * the non-cash parts pay at most the total; the cash part, if any, covers what they leave and may
 * exceed it by at most `MAX_CHANGE` (its change). A credit part is what goes on the tab.
 */
export function splitTender(total: number, payments: TenderPartInput[]): SplitTender | PaymentsBreach {
  const breach = (message: string): PaymentsBreach => ({ code: 'VALIDATION_ERROR', field: 'payments', message });
  const cash = payments.find((p) => p.method === 'Cash');
  const others = payments.filter((p) => p !== cash);
  const left = total - sum(others);
  const given = sum(payments);
  if (left < 0 || (!cash && left > 0) || (cash && cash.amount < left))
    return breach(
      left < 0
        ? `the parts other than cash come to ${formatTzs(sum(others))}, more than the sale's total of ${formatTzs(total)} (only cash may exceed it)`
        : `the parts add up to ${formatTzs(given)}, less than the sale's total of ${formatTzs(total)}`,
    );
  if (!cash) return { parts: payments.map((p) => part(p)), tendered: null, change: null };
  if (left === 0) return breach(`the parts other than cash already pay the total of ${formatTzs(total)}: leave out the cash part`);
  if (cash.amount - left > MAX_CHANGE)
    return breach(
      `the cash part of ${formatTzs(cash.amount)} would leave ${formatTzs(cash.amount - left)} in change, more than ${formatTzs(MAX_CHANGE)} (ten of the largest note): check the amount`,
    );
  return { parts: payments.map((p) => part(p, p === cash ? left : p.amount)), tendered: cash.amount, change: cash.amount - left };
}

/** What a sale answers as its method: the one it was paid by, or `Mixed`. */
export const saleMethodOf = (parts: Array<{ method: PaymentMethod }>): SaleMethod => (parts.length === 1 ? parts[0]!.method : 'Mixed');

/** The methods a sale's input names: its parts', or its one `payment_method`. */
export const methodsOf = (input: { payment_method?: PaymentMethod; payments?: Array<{ method: PaymentMethod }> }): PaymentMethod[] =>
  input.payments ? input.payments.map((p) => p.method) : input.payment_method ? [input.payment_method] : [];

/**
 * A pushed split sale the server books at another total than the till's (a `price_mismatch`): the
 * till's parts are what was paid, so the difference is the drawer's (the cash part), else the tab's
 * (the credit part), else the last part's; a part it would take to nothing drops out and the rest of
 * the difference goes to the next.
 */
export function rebaseParts(parts: TenderPart[], total: number): TenderPart[] {
  const order = [...parts].sort((a, b) => rank(a, parts) - rank(b, parts));
  let diff = total - sum(parts);
  const out = new Map(parts.map((p) => [p, p.amount]));
  for (const p of order) {
    if (diff === 0) break;
    const next = Math.max(0, out.get(p)! + diff);
    diff -= next - out.get(p)!;
    out.set(p, next);
  }
  return parts.filter((p) => out.get(p)! > 0).map((p) => ({ ...p, amount: out.get(p)! }));
}

const rank = (p: TenderPart, parts: TenderPart[]) =>
  p.method === 'Cash' ? 0 : p.method === 'Credit' ? 1 : 2 + parts.length - parts.indexOf(p);

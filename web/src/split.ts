/**
 * A sale paid several ways at the browser till (issue 51, docs/pos.md "Split tender"), as plain
 * data and pure functions: the parts as the cashier types them, what is left to pay, and the
 * `payments` the till sells with. Whether they pay the sale is the shared `splitTender`, the rule
 * the SDK and the server judge the sale by, so the charge is enabled exactly when the sale would pass.
 */
import { isMobileMoney, PaymentMethod, type SalePaymentInput, splitTender, toCents } from '@duka/shared';
import { typedTzs } from './format.js';

/** One part as typed: its method, its amount (TZS, as typed) and, for mobile money or Bank, the reference. */
export interface SplitPart {
  method: PaymentMethod;
  amount: string;
  reference: string;
}

/** The most parts a sale takes (the server's `SalePayments`). */
export const MAX_PARTS = 4;

/** A split starts as the usual pair: cash and M-Pesa. */
export const startSplit = (): SplitPart[] => [
  { method: 'Cash', amount: '', reference: '' },
  { method: 'M-Pesa', amount: '', reference: '' },
];

/** Mobile money and Bank carry the reference from the customer's SMS or slip: the server matches payments by it. */
export const needsReference = (m: PaymentMethod): boolean => isMobileMoney(m) || m === 'Bank';

/** The methods part `i` may take: each method once, and one mobile-money wallet at most. */
export function partChoices(parts: readonly SplitPart[], i: number): PaymentMethod[] {
  const others = parts.filter((_, j) => j !== i).map((p) => p.method);
  const walletTaken = others.some(isMobileMoney);
  return PaymentMethod.options.filter((m) => !others.includes(m) && !(walletTaken && isMobileMoney(m)));
}

/** Another part, of the first method still free (none past `MAX_PARTS`). */
export function addPart(parts: readonly SplitPart[]): SplitPart[] {
  const method =
    parts.length < MAX_PARTS ? partChoices([...parts, { method: 'Cash', amount: '', reference: '' }], parts.length)[0] : undefined;
  return method ? [...parts, { method, amount: '', reference: '' }] : [...parts];
}

export const setPart = (parts: readonly SplitPart[], i: number, patch: Partial<SplitPart>): SplitPart[] =>
  parts.map((p, j) => (j === i ? { ...p, ...patch } : p));

export const removePart = (parts: readonly SplitPart[], i: number): SplitPart[] => parts.filter((_, j) => j !== i);

/** Why the parts cannot be charged yet, as an i18n key with its figures, or the shared rule's own message. */
export type SplitFault = { key: 'split.amount_missing' | 'split.reference_missing' | 'split.left'; amount?: number } | { message: string };

export interface SplitState {
  /** The total less every part, cents: above 0 still to pay; below 0 the cash part's change (or too much). */
  left: number;
  /** The change the cash part leaves, cents (null without cash, or until the parts pay the sale). */
  change: number | null;
  fault: SplitFault | null;
  /** What `sell` takes; null while the parts cannot pay the sale. */
  payments: SalePaymentInput[] | null;
}

/** The parts against the sale's total (cents). */
export function splitState(parts: readonly SplitPart[], total: number): SplitState {
  const amounts = parts.map((p) => typedTzs(p.amount));
  const given = amounts.reduce<number>((s, a) => s + (a === null ? 0 : toCents(a)), 0);
  const left = total - given;
  const blank = { left, change: null, payments: null };
  if (left > 0) return { ...blank, fault: { key: 'split.left', amount: left } };
  if (amounts.some((a) => a === null || a <= 0)) return { ...blank, fault: { key: 'split.amount_missing' } };
  const payments = parts.map((p, i) => ({
    method: p.method,
    amount: amounts[i]!,
    ...(needsReference(p.method) && p.reference.trim() ? { reference: p.reference.trim() } : {}),
  }));
  const split = splitTender(
    total,
    payments.map((p) => ({ ...p, amount: toCents(p.amount) })),
  );
  if ('field' in split) return { ...blank, fault: { message: split.message } };
  if (parts.some((p) => needsReference(p.method) && !p.reference.trim()))
    return { ...blank, change: split.change, fault: { key: 'split.reference_missing' } };
  return { left, change: split.change, fault: null, payments };
}

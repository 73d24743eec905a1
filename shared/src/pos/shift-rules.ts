/**
 * A shift's cash-up (issue 37): what each payment method should hold at the end of a shift, from
 * its opening float and the money that moved while it was open. One rule, used by the server's
 * shift report and by the till's X report offline, so the two never disagree.
 *
 * Per method: sales in, refunds and voids out (the money given back), credit payments in, payouts
 * (cash expenses) out. Cash expected = float + in − out; each wallet and Bank expected = in − out.
 * Credit sales are listed but are not money in a drawer or a wallet, nor is a cheque paid out: they
 * have no expected figure and are never counted. Amounts are integer cents.
 */
import { PaymentMethod, PayoutMethod } from '../payment-methods.js';

/** What moved: a sale in, its reversal (refund or void) out, a credit payment in, a payout out. */
export type ShiftMovementKind = 'sale' | 'reversal' | 'credit_payment' | 'payout';

export interface ShiftMovement {
  kind: ShiftMovementKind;
  method: string;
  /** Cents, positive. */
  amount: number;
  /** How many movements this row sums (a server reads them grouped); default 1. */
  count?: number;
}

export interface ShiftMethodFigures {
  method: string;
  /** Whether the method's money is counted at close (drawer, wallet, bank). */
  counted_at_close: boolean;
  opening_float: number;
  sales: number;
  sales_count: number;
  refunds: number;
  refunds_count: number;
  credit_payments: number;
  payouts: number;
  /** Null for a method that is not counted (Credit, Cheque). */
  expected: number | null;
  /** Null until counted (an open shift, or a method left uncounted at close). */
  counted: number | null;
  /** counted − expected: negative is short. Null when either is. */
  over_short: number | null;
}

export interface ShiftFigures {
  methods: ShiftMethodFigures[];
  totals: {
    sales: number;
    refunds: number;
    credit_payments: number;
    payouts: number;
    expected: number;
    counted: number;
    over_short: number;
  };
  sales_count: number;
  refund_count: number;
  payout_count: number;
  credit_payment_count: number;
}

/** Every method a shift can report, in the order a report prints them: sales' methods, then payouts' own (Cheque). */
export const SHIFT_METHODS: readonly string[] = [...new Set<string>([...PaymentMethod.options, ...PayoutMethod.options])];

const CASH: string = PaymentMethod.enum.Cash;
const sales: readonly string[] = PaymentMethod.options;
const payouts: readonly string[] = PayoutMethod.options;
/** A sale's method no payout uses (Credit) and a payout's no sale uses (Cheque): neither is money at the till. */
const NOT_MONEY = new Set<string>([...sales.filter((m) => !payouts.includes(m)), ...payouts.filter((m) => !sales.includes(m))]);

/** Cash, the wallets and Bank are counted at close; Credit (a debt) and Cheque (not in the till) are not. */
export const isCountedMethod = (method: string): boolean => !NOT_MONEY.has(method);
export const CASH_METHOD = CASH;

/**
 * The shift's figures. `counted`: what the cashier counted per method at close (absent while the
 * shift is open). Cash is always listed (the float is in the drawer); another method only when
 * money moved by it or it was counted.
 */
export function computeShiftReport(input: {
  opening_float: number;
  movements: readonly ShiftMovement[];
  counted?: Readonly<Record<string, number>>;
}): ShiftFigures {
  const blank = (method: string): ShiftMethodFigures => ({
    method,
    counted_at_close: isCountedMethod(method),
    opening_float: method === CASH ? input.opening_float : 0,
    sales: 0,
    sales_count: 0,
    refunds: 0,
    refunds_count: 0,
    credit_payments: 0,
    payouts: 0,
    expected: null,
    counted: null,
    over_short: null,
  });
  const by = new Map<string, ShiftMethodFigures>([[CASH, blank(CASH)]]);
  const at = (method: string) => by.get(method) ?? by.set(method, blank(method)).get(method)!;
  const counts = { sales_count: 0, refund_count: 0, payout_count: 0, credit_payment_count: 0 };
  for (const m of input.movements) {
    const f = at(m.method);
    const n = m.count ?? 1;
    if (m.kind === 'sale') {
      f.sales += m.amount;
      f.sales_count += n;
      counts.sales_count += n;
    } else if (m.kind === 'reversal') {
      f.refunds += m.amount;
      f.refunds_count += n;
      counts.refund_count += n;
    } else if (m.kind === 'credit_payment') {
      f.credit_payments += m.amount;
      counts.credit_payment_count += n;
    } else {
      f.payouts += m.amount;
      counts.payout_count += n;
    }
  }
  for (const [method, amount] of Object.entries(input.counted ?? {})) if (isCountedMethod(method)) at(method).counted = amount;

  const totals = { sales: 0, refunds: 0, credit_payments: 0, payouts: 0, expected: 0, counted: 0, over_short: 0 };
  const methods = [...by.values()].sort((a, b) => SHIFT_METHODS.indexOf(a.method) - SHIFT_METHODS.indexOf(b.method));
  for (const f of methods) {
    if (f.counted_at_close) {
      f.expected = f.opening_float + f.sales + f.credit_payments - f.refunds - f.payouts;
      totals.expected += f.expected;
      if (f.counted !== null) {
        f.over_short = f.counted - f.expected;
        totals.counted += f.counted;
        totals.over_short += f.over_short;
      }
    }
    totals.sales += f.sales;
    totals.refunds += f.refunds;
    totals.credit_payments += f.credit_payments;
    totals.payouts += f.payouts;
  }
  return { methods, totals, ...counts };
}

/**
 * Whether a closed shift's shortfall is one the owner asked to hear of: short (over/short across
 * the counted methods below zero) by more than `threshold` cents. A method over and another short
 * by the same amount (a sale rung up as cash but paid by M-Pesa) is no shortfall.
 */
export const shortBeyond = (figures: Pick<ShiftFigures, 'totals'>, threshold: number): boolean => -figures.totals.over_short > threshold;

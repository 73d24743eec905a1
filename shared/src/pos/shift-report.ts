/** A shift's report as the API answers it: the shared cash-up figures (cents, shift-rules.ts) in shillings. */
import { fromCents } from '../money.js';
import type { ShiftFigures } from './shift-rules.js';
import type { ShiftReport } from './shift.schemas.js';

/** The API's report from the shared figures (cents) and the shift's particulars. */
export function toShiftReport(
  figures: ShiftFigures,
  shift: {
    id: string;
    store_id: string;
    cashier_id: string;
    cashier_name: string | null;
    till_number: string | null;
    opened_at: string;
    closed_at: string | null;
    opening_float: number;
    note: string | null;
  },
): ShiftReport {
  const money = (c: number | null) => (c === null ? null : fromCents(c));
  const t = figures.totals;
  return {
    kind: shift.closed_at ? 'Z' : 'X',
    shift_id: shift.id,
    store_id: shift.store_id,
    cashier_id: shift.cashier_id,
    cashier_name: shift.cashier_name,
    till_number: shift.till_number,
    opened_at: shift.opened_at,
    closed_at: shift.closed_at,
    opening_float: fromCents(shift.opening_float),
    methods: figures.methods.map((m) => ({
      method: m.method,
      counted_at_close: m.counted_at_close,
      opening_float: fromCents(m.opening_float),
      sales: fromCents(m.sales),
      sales_count: m.sales_count,
      refunds: fromCents(m.refunds),
      refunds_count: m.refunds_count,
      credit_payments: fromCents(m.credit_payments),
      payouts: fromCents(m.payouts),
      expected: money(m.expected),
      counted: money(m.counted),
      over_short: money(m.over_short),
    })),
    totals: {
      sales: fromCents(t.sales),
      refunds: fromCents(t.refunds),
      credit_payments: fromCents(t.credit_payments),
      payouts: fromCents(t.payouts),
      expected: fromCents(t.expected),
      counted: fromCents(t.counted),
      over_short: fromCents(t.over_short),
    },
    sales_count: figures.sales_count,
    refund_count: figures.refund_count,
    payout_count: figures.payout_count,
    credit_payment_count: figures.credit_payment_count,
    note: shift.note,
  };
}

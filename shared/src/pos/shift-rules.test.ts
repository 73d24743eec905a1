import { describe, expect, it } from 'vitest';
import { computeShiftReport, isCountedMethod, shortBeyond } from './shift-rules.js';

describe('computeShiftReport', () => {
  it('expects float + in − out in cash, in − out in each wallet and the bank, and nothing of credit or cheques', () => {
    const r = computeShiftReport({
      opening_float: 50_000_00,
      movements: [
        { kind: 'sale', method: 'Cash', amount: 5_000_00, count: 2 },
        { kind: 'sale', method: 'M-Pesa', amount: 4_500_00 },
        { kind: 'sale', method: 'Credit', amount: 6_000_00 },
        { kind: 'reversal', method: 'Cash', amount: 2_000_00 },
        { kind: 'credit_payment', method: 'Cash', amount: 2_500_00 },
        { kind: 'payout', method: 'Cash', amount: 1_200_00 },
        { kind: 'payout', method: 'Cheque', amount: 30_000_00 },
        { kind: 'payout', method: 'Bank', amount: 10_000_00 },
      ],
      counted: { Cash: 53_300_00, 'M-Pesa': 4_500_00 },
    });
    expect(r.methods.map((m) => [m.method, m.expected, m.counted, m.over_short])).toEqual([
      ['Cash', 54_300_00, 53_300_00, -1_000_00],
      ['M-Pesa', 4_500_00, 4_500_00, 0],
      ['Bank', -10_000_00, null, null],
      ['Credit', null, null, null],
      ['Cheque', null, null, null],
    ]);
    expect(r.totals).toEqual({
      sales: 15_500_00,
      refunds: 2_000_00,
      credit_payments: 2_500_00,
      payouts: 41_200_00,
      expected: 48_800_00,
      counted: 57_800_00,
      over_short: -1_000_00,
    });
    expect([r.sales_count, r.refund_count, r.payout_count, r.credit_payment_count]).toEqual([4, 1, 3, 1]);
  });

  it('always lists cash with its float, and ignores a count of a method that is never counted', () => {
    const r = computeShiftReport({ opening_float: 1000, movements: [], counted: { Credit: 500 } });
    expect(r.methods).toHaveLength(1);
    expect(r.methods[0]).toMatchObject({ method: 'Cash', opening_float: 1000, expected: 1000, counted: null });
    expect(isCountedMethod('Credit')).toBe(false);
    expect(isCountedMethod('Tigo Pesa')).toBe(true);
  });

  it('notifies only of a net shortfall beyond the threshold', () => {
    const short = (over_short: number) => ({ totals: { over_short } }) as Parameters<typeof shortBeyond>[0];
    expect(shortBeyond(short(-1), 0)).toBe(true);
    expect(shortBeyond(short(0), 0)).toBe(false);
    expect(shortBeyond(short(-500_00), 500_00)).toBe(false);
    expect(shortBeyond(short(-500_01), 500_00)).toBe(true);
    expect(shortBeyond(short(2_000_00), 0)).toBe(false);
  });
});

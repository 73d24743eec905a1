import { describe, expect, it } from 'vitest';
import { refundedShare, refundShare, refundTender } from './refund-rules.js';

describe('refundShare: the money for part of a line', () => {
  const sugar = { qty: 1250, line_total: 406_300, discount: 0, tax: 0 };

  it('0.25 kg of 1.25 kg at 4,063 is 813 (812.60 half up), then the 1 kg left exactly 3,250', () => {
    expect(refundShare({ ...sugar, refunded: 0 }, 250)).toEqual({ amount: 81_300, tax: 0 });
    expect(refundShare({ ...sugar, refunded: 250 }, 1000)).toEqual({ amount: 325_000, tax: 0 });
  });

  it('adds up to the line however it is split, and depends only on how much is back', () => {
    for (const steps of [
      [1, 1, 1, 1, 1],
      [333, 333, 334],
      [1, 1248, 1],
      [625, 625],
    ]) {
      const qty = steps.reduce((s, x) => s + x, 0);
      const line = { qty, line_total: 406_300, discount: 1_537, tax: 61_976 };
      let done = 0;
      let amount = 0;
      let tax = 0;
      for (const part of steps) {
        const share = refundShare({ ...line, refunded: done }, part);
        expect(share.amount).toBeGreaterThanOrEqual(0);
        amount += share.amount;
        tax += share.tax;
        done += part;
        expect(amount).toBe(refundedShare(line.line_total - line.discount, qty, done));
      }
      expect([amount, tax]).toEqual([406_300 - 1_537, 61_976]);
    }
  });

  it('never gives back more than the line, even where rounding up to the shilling would', () => {
    // 10.90 × 999 / 1000 = 10.889 rounds to 11.00: held at the line's 10.90, the last part gives 0.
    expect(refundedShare(1_090, 1000, 999)).toBe(1_090);
    expect(refundShare({ qty: 1000, line_total: 1_090, discount: 0, tax: 0, refunded: 999 }, 1).amount).toBe(0);
  });

  it('takes a discount share proportionally: a piece line of 3 at 1,000 with 300 off gives 900 for 1', () => {
    expect(refundShare({ qty: 3, line_total: 300_000, discount: 30_000, tax: 0, refunded: 0 }, 1).amount).toBe(90_000);
  });
});

describe('refundTender: which part gives the money back', () => {
  const parts = [
    { method: 'Cash' as const, amount: 500_000, back: 0 },
    { method: 'M-Pesa' as const, amount: 1_075_000, back: 0 },
  ];

  it('cash first, then the other parts in the order paid', () => {
    expect(refundTender(162_500, parts, 0)).toEqual({ parts: [{ method: 'Cash', amount: 162_500 }], tab: 0 });
    expect(refundTender(1_250_000, [{ ...parts[0]!, back: 162_500 }, parts[1]!], 0)).toEqual({
      parts: [
        { method: 'Cash', amount: 337_500 },
        { method: 'M-Pesa', amount: 912_500 },
      ],
      tab: 0,
    });
  });

  it('a credit part: its unpaid balance first (the tab falls by it), what the tab was paid last', () => {
    const credit = [
      { method: 'M-Pesa' as const, amount: 400_000, back: 0 },
      { method: 'Credit' as const, amount: 600_000, back: 0 },
    ];
    expect(refundTender(300_000, credit, 600_000)).toEqual({ parts: [{ method: 'Credit', amount: 300_000 }], tab: 300_000 });
    // 2,000 of the tab paid already: 4,000 off the tab, then M-Pesa, then the paid 2,000 under Credit.
    expect(refundTender(1_000_000, credit, 400_000)).toEqual({
      parts: [
        { method: 'Credit', amount: 600_000 },
        { method: 'M-Pesa', amount: 400_000 },
      ],
      tab: 400_000,
    });
  });
});

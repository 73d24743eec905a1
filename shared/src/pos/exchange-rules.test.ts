import { describe, expect, it } from 'vitest';
import { exchangeTender, mergeParts, mirroredOf } from './exchange-rules.js';

describe('exchangeTender: the refund of the items back pays the new sale first', () => {
  it('items out dearer: the whole refund pays the sale, nothing goes out', () => {
    expect(exchangeTender([{ method: 'Cash', amount: 2_000_000 }], 2_500_000)).toEqual({
      applied: [{ method: 'Cash', amount: 2_000_000 }],
      out: [],
    });
  });

  it('items back dearer: the rest goes out by the refund’s parts in order, or by the method asked first', () => {
    const parts = [
      { method: 'Cash' as const, amount: 500_000 },
      { method: 'M-Pesa' as const, amount: 1_000_000 },
    ];
    expect(exchangeTender(parts, 1_200_000)).toEqual({
      applied: [
        { method: 'Cash', amount: 500_000 },
        { method: 'M-Pesa', amount: 700_000 },
      ],
      out: [{ method: 'M-Pesa', amount: 300_000 }],
    });
    expect(exchangeTender(parts, 1_200_000, 'Cash')).toEqual({
      applied: [
        { method: 'M-Pesa', amount: 1_000_000 },
        { method: 'Cash', amount: 200_000 },
      ],
      out: [{ method: 'Cash', amount: 300_000 }],
    });
  });

  it('mergeParts adds one method’s parts together', () => {
    expect(
      mergeParts([
        { method: 'M-Pesa', amount: 1 },
        { method: 'Cash', amount: 2 },
        { method: 'M-Pesa', amount: 3 },
      ]),
    ).toEqual([
      { method: 'M-Pesa', amount: 4 },
      { method: 'Cash', amount: 2 },
    ]);
  });
});

describe('an exchange new sale: its mirrored money and its mobile-money reference (issue 52)', () => {
  it('mergeParts keeps the difference’s SMS reference on the merged M-Pesa part', () => {
    expect(
      mergeParts<{ method: 'M-Pesa'; amount: number; reference?: string }>([
        { method: 'M-Pesa', amount: 2_000_000 },
        { method: 'M-Pesa', amount: 500_000, reference: 'QK7H2M9X1P' },
      ]),
    ).toEqual([{ method: 'M-Pesa', amount: 2_500_000, reference: 'QK7H2M9X1P' }]);
  });

  it('mirroredOf: each part’s method’s refund money, up to the part', () => {
    const refund = [
      { method: 'Cash' as const, amount: 500_000 },
      { method: 'M-Pesa' as const, amount: 2_000_000 },
    ];
    // Dearer items out: the whole refund is mirrored, the difference on top is new.
    expect(
      mirroredOf(
        [
          { method: 'Cash', amount: 500_000 },
          { method: 'M-Pesa', amount: 2_500_000 },
        ],
        refund,
      ),
    ).toEqual([500_000, 2_000_000]);
    // Cheaper items out: only what the sale took of the refund.
    expect(mirroredOf([{ method: 'M-Pesa', amount: 1_200_000 }], refund)).toEqual([1_200_000]);
    // A method the refund did not have is all new.
    expect(mirroredOf([{ method: 'Tigo Pesa', amount: 300_000 }], refund)).toEqual([0]);
  });
});

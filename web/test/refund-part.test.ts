/** Refunding part of a sale at the browser till (web/src/refund-part.ts): what is offered and the money by the shared rule. */
import type { Receipt } from '@duka/client-sdk';
import { describe, expect, it } from 'vitest';
import { refundPlan, refundRows } from '../src/refund-part.js';

const SUGAR = '00000000-0000-4000-8000-000000000001';
const SOAP = '00000000-0000-4000-8000-000000000002';
const line = (o: Record<string, unknown>) => ({ discount: 0, tax: 0, batches: [], pack: null, unit_price: 0, ...o });
// 1.25 kg of sugar at 3,250/kg (4,063: 4,062.5 rounded half up), and 3 bars of soap of which 1 came back already.
const SALE = {
  id: 'sale',
  lines: [
    line({ product_id: SUGAR, product_name: 'Sukari', qty: 1.25, unit: 'kg', line_total: 4063 }),
    line({ product_id: SOAP, product_name: 'Sabuni', qty: 3, unit: 'piece', line_total: 4500, refunded_qty: 1 }),
  ],
} as unknown as Receipt;

describe('refund part of a sale at the browser till', () => {
  it('offers each line with what is left, in its unit', () => {
    expect(refundRows(SALE).map((r) => [r.name, r.left, r.unit, r.decimals])).toEqual([
      ['Sukari', 1.25, 'kg', true],
      ['Sabuni', 2, 'piece', false],
    ]);
  });

  it('gives back 813 for 0.25 kg of the 1.25 kg line (the shared refundShare), then the rest of the line to the shilling', () => {
    expect(refundPlan(SALE, new Map([[0, '0,25']]))).toEqual({
      lines: [{ product_id: SUGAR, qty: 0.25 }],
      amount: 81_300,
      faults: new Map(),
    });
    const later = {
      ...SALE,
      lines: [{ ...SALE.lines[0]!, refunded_qty: 0.25 }, SALE.lines[1]!],
    } as Receipt;
    // 4,063 − 813: exactly the line, however it was split.
    expect(refundPlan(later, new Map([[0, '1']])).amount).toBe(325_000);
    expect(refundPlan(SALE, new Map([[1, '2']])).amount).toBe(300_000);
  });

  it('refuses half a bar of soap, four decimals, and more than is left', () => {
    const plan = refundPlan(
      SALE,
      new Map([
        [0, '1.2501'],
        [1, '0.5'],
      ]),
    );
    expect([...plan.faults]).toEqual([
      [0, 'qty'],
      [1, 'qty'],
    ]);
    expect(plan.lines).toEqual([]);
    expect([...refundPlan(SALE, new Map([[1, '3']])).faults]).toEqual([[1, 'too_much']]);
    expect([...refundPlan(SALE, new Map([[0, '1.26']])).faults]).toEqual([[0, 'too_much']]);
  });
});

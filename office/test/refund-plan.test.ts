/** The back office's refund of part of a sale (office/src/screens/sales/refund-plan.ts): what is offered, what is sent, the money by the shared rules. */
import type { Transaction } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { refundPlan, refundRows } from '../src/screens/sales/refund-plan.js';

const SUGAR = '00000000-0000-4000-8000-000000000001';
const SOAP = '00000000-0000-4000-8000-000000000002';
const BREAD = '00000000-0000-4000-8000-000000000003';
const line = (o: Record<string, unknown>) => ({ discount: 0, tax: 0, batches: [], pack: null, unit_price: 0, refunded_qty: 0, ...o });
// 1.25 kg of sugar at 3,250/kg (4,063), 3 bars of soap of which 1 came back already, 2 loaves, and the soap again.
const SALE = {
  id: 'sale',
  lines: [
    line({ product_id: SUGAR, product_name: 'Sukari', qty: 1.25, unit: 'kg', line_total: 4063 }),
    line({ product_id: SOAP, product_name: 'Sabuni', qty: 3, unit: 'piece', line_total: 4500, refunded_qty: 1 }),
    line({ product_id: BREAD, product_name: 'Mkate', qty: 2, unit: 'piece', line_total: 3000 }),
    line({ product_id: SOAP, product_name: 'Sabuni', qty: 1, unit: 'piece', line_total: 1500 }),
  ],
} as unknown as Transaction;
const typed = (...pairs: Array<[number, string]>) => new Map(pairs);

describe('a refund of part of a sale in the back office', () => {
  it('offers each line with what is left, in its unit; a repeated product is marked', () => {
    expect(refundRows(SALE).map((r) => [r.name, r.sold, r.left, r.unit, r.decimals, r.repeat])).toEqual([
      ['Sukari', 1.25, 1.25, 'kg', true, false],
      ['Sabuni', 3, 2, 'piece', false, false],
      ['Mkate', 2, 2, 'piece', false, false],
      ['Sabuni', 1, 1, 'piece', false, true],
    ]);
  });

  it('with nothing typed refunds everything left (no lines sent): the whole, less what came back', () => {
    // 4,063 + 2 of 3 soaps (3,000) + 3,000 + 1,500.
    expect(refundPlan(SALE, typed())).toEqual({ sent: [], amount: 1_156_300, fault: null });
    expect(refundPlan(SALE, typed([0, '  ']))).toEqual({ sent: [], amount: 1_156_300, fault: null });
  });

  it('sends the lines typed, in order, and gives back their shares: 0.25 kg of 1.25 kg is 813', () => {
    expect(refundPlan(SALE, typed([2, '1'], [0, '0,25']))).toEqual({
      lines: [
        { product_id: SUGAR, qty: 0.25 },
        { product_id: BREAD, qty: 1 },
      ],
      sent: [0, 2],
      amount: 81_300 + 150_000,
      fault: null,
    });
    const later = { ...SALE, lines: [{ ...SALE.lines[0]!, refunded_qty: 0.25 }, ...SALE.lines.slice(1)] } as Transaction;
    // 4,063 − 813: exactly the line, however it was split.
    expect(refundPlan(later, typed([0, '1'])).amount).toBe(325_000);
    // Zero is nothing: nothing to send.
    expect(refundPlan(SALE, typed([1, '0']))).toEqual({ lines: [], sent: [], amount: 0, fault: null });
  });

  it('marks half a bar of soap, a negative number and more than is left on their line, and still sends them for the server to judge', () => {
    expect(refundPlan(SALE, typed([0, '0.5'], [1, '0.5'])).fault).toEqual({ index: 1, kind: 'qty' });
    expect(refundPlan(SALE, typed([2, '-1'])).fault).toEqual({ index: 2, kind: 'qty' });
    const plan = refundPlan(SALE, typed([0, '0.5'], [1, '3']));
    expect(plan).toEqual({
      lines: [
        { product_id: SUGAR, qty: 0.5 },
        { product_id: SOAP, qty: 3 },
      ],
      sent: [0, 1],
      amount: null,
      fault: { index: 1, kind: 'too_much' },
    });
    expect(refundPlan(SALE, typed([0, '1.26'])).fault).toEqual({ index: 0, kind: 'too_much' });
  });
});

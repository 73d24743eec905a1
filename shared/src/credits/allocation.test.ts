import { describe, expect, it } from 'vitest';
import { allocatePayment, type OwingTab } from './allocation.js';

// Opened on the 1st, 2nd and 3rd, listed out of order: the rule orders them itself.
const tabs: OwingTab[] = [
  { id: 'c', opened_at: 3000, balance: 250_000 },
  { id: 'a', opened_at: 1000, balance: 1_000_000 },
  { id: 'b', opened_at: 2000, balance: 500_000 },
];
const pay = (amount: number, over: Partial<Parameters<typeof allocatePayment>[0]> = {}) =>
  allocatePayment({ amount, customer_name: 'Amina', owed: 1_750_000, tabs, ...over });

describe('allocatePayment', () => {
  it('settles the oldest tab first and leaves the rest on the next one', () => {
    expect(pay(1_200_000)).toEqual({
      allocations: [
        { tab_id: 'a', amount: 1_000_000, settled: true },
        { tab_id: 'b', amount: 200_000, settled: false },
      ],
    });
  });

  it('settles every tab with exactly what is owed', () => {
    expect(pay(1_750_000).allocations?.map((a) => [a.tab_id, a.amount, a.settled])).toEqual([
      ['a', 1_000_000, true],
      ['b', 500_000, true],
      ['c', 250_000, true],
    ]);
  });

  it('orders tabs opened at the same moment by id, and skips tabs that owe nothing', () => {
    const same: OwingTab[] = [
      { id: 'y', opened_at: 1000, balance: 300 },
      { id: 'x', opened_at: 1000, balance: 0 },
      { id: 'w', opened_at: 1000, balance: 200 },
    ];
    expect(pay(400, { owed: 500, tabs: same })).toEqual({
      allocations: [
        { tab_id: 'w', amount: 200, settled: true },
        { tab_id: 'y', amount: 200, settled: false },
      ],
    });
  });

  it('refuses a cent more than is owed, and any payment when nothing is', () => {
    expect(pay(1_750_001)).toEqual({
      breach: { code: 'OVERPAYMENT', field: 'amount', message: 'Amina owes TZS 17500; the payment cannot be more than that' },
    });
    expect(pay(100, { owed: 0, tabs: [] })).toEqual({ breach: { code: 'OVERPAYMENT', field: 'amount', message: 'Amina owes nothing' } });
  });
});

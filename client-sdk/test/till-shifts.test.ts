/**
 * A cashier's shift on the till with the network down (issue 37): opened, sold through, counted and
 * closed offline, with the X and Z reports worked out from the replica; once online, the server's
 * report of the same shift agrees to the shilling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openTill, seedShop, signIn, startServer } from './harness.js';

describe('till: shifts and cash-up offline', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

  it("opens, sells, refunds, pays out and closes a shift offline; the server's Z report matches the till's", async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    await signIn(till, shop);
    await till.syncNow();
    h.net.offline = true;

    expect(await till.currentShift()).toBeNull();
    const opened = await till.openShift({ opening_float: 20000, till_number: 'T1' });
    expect(opened).toMatchObject({ status: 'open', opening_float: 20000, report: { kind: 'X', totals: { expected: 20000 } } });
    await expect(till.openShift({ opening_float: 1000 })).rejects.toMatchObject({ code: 'CONFLICT' });

    const cash = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash' });
    await till.sell({ lines: [{ product_id: shop.unga.id, qty: 1 }], payment_method: 'M-Pesa', payment_reference: 'QK7H2M9X1P' });
    const customer = await till.createCustomer({ name: 'Halima Said' });
    await till.sell({ lines: [{ product_id: shop.rice.id, qty: 1 }], payment_method: 'Credit', customer_id: customer.id });
    await till.refund(cash.id, 'flat');
    await till.recordExpense({ title: 'Maji', category: 'Supplies', amount: 500, payment_method: 'Cash' });
    await till.recordCreditPayment({ customer_id: customer.id, amount: 1000, method: 'Cash' });

    const x = await till.shiftReport();
    expect(x!.kind).toBe('X');
    expect(x!.methods.map((m) => [m.method, m.sales, m.refunds, m.credit_payments, m.payouts, m.expected])).toEqual([
      ['Cash', 2000, 2000, 1000, 500, 20500],
      ['M-Pesa', 2500, 0, 0, 0, 2500],
      ['Credit', 3200, 0, 0, 0, null],
    ]);

    const z = await till.closeShift({ counted: { Cash: 20000, 'M-Pesa': 2500 }, note: 'coins short' });
    expect(z).toMatchObject({ status: 'closed', over_short: -500, close_note: 'coins short' });
    expect(z.report).toMatchObject({ kind: 'Z', totals: { expected: 23000, counted: 22500, over_short: -500 } });
    expect(await till.currentShift()).toBeNull();
    expect(till.status().pending).toBe(9);

    h.net.offline = false;
    const synced = await till.syncNow();
    expect(synced.pushed).toBe(9);
    expect(await till.rejected()).toEqual([]);
    const server = await h.t.request('GET', `/pos/shifts/${opened.id}`, { token: shop.owner.token });
    expect(server.status, server.text).toBe(200);
    expect(server.body.data).toMatchObject({ status: 'closed', over_short: -500, close_note: 'coins short', till_number: 'T1' });
    expect(server.body.data.report.methods).toEqual(z.report.methods);
    expect(server.body.data.report.totals).toEqual(z.report.totals);
    await till.close();
  });
});

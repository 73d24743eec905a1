import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/**
 * A sale paid several ways (issue 51) counts each part under its own method in every figure that
 * splits by method, never under `Mixed`. One shop, Dar es Salaam, 2026-05-04:
 *   10:00  12,500  5,000 Cash + 7,500 M-Pesa
 *   10:01  12,500  7,500 M-Pesa + 5,000 Credit (Halima's tab), 1,000 then paid on the tab in cash
 *   10:02   3,000  Cash, refunded at 10:03
 */
describe('split tender in the analytics', () => {
  let t: TestApp;
  let owner: Session;
  let onTab: string;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.advance(Date.parse('2026-05-04T10:00:00+03:00') - t.clock.now());
    owner = await registerOwner(t);
    const send = async (path: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', path, { token: owner.token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.data;
    };
    const crate = (await send('/inventory/products', { name: 'Soda crate', selling_price: 12500, cost_price: 10000, stock: 50 }))
      .id as string;
    const soap = (await send('/inventory/products', { name: 'Sabuni', selling_price: 3000, cost_price: 2000, stock: 50 })).id as string;
    const customer = (await send('/customers', { name: 'Halima Said' })).id as string;
    await send('/pos/sale', {
      lines: [{ product_id: crate, qty: 1 }],
      payments: [
        { method: 'Cash', amount: 5000 },
        { method: 'M-Pesa', amount: 7500, reference: 'A1' },
      ],
    });
    t.clock.advance(60_000);
    const tabSale = await send('/pos/sale', {
      lines: [{ product_id: crate, qty: 1 }],
      customer_id: customer,
      payments: [
        { method: 'M-Pesa', amount: 7500, reference: 'A2' },
        { method: 'Credit', amount: 5000 },
      ],
    });
    onTab = tabSale.id as string;
    await send(`/credits/customers/${customer}/payments`, { amount: 1000, method: 'Cash' });
    t.clock.advance(60_000);
    const refunded = await send('/pos/sale', { lines: [{ product_id: soap, qty: 1 }], payment_method: 'Cash' });
    t.clock.advance(60_000);
    await send(`/pos/transactions/${refunded.id}/refund`, { reason: 'returned' });
  });
  afterAll(() => t.close());

  const get = async (path: string) => {
    const res = await t.request('GET', path, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const RANGE = 'date_from=2026-05-04&date_to=2026-05-04';

  it('the sales summary, the payment mix and the sales report split each sale by its parts', async () => {
    expect(await get(`/pos/summary?${RANGE}`)).toMatchObject({
      total_sales: 25000,
      transaction_count: 2,
      cash_total: 5000,
      mpesa_total: 15000,
      credit_total: 5000,
      refund_count: 1,
      refund_total: 3000,
    });
    expect((await get(`/analytics/payment-mix?${RANGE}`)).payment_mix).toEqual({
      Cash: 5000,
      'M-Pesa': 15000,
      'Tigo Pesa': 0,
      'Airtel Money': 0,
      Bank: 0,
      Credit: 5000,
    });
    const sales = await get(`/analytics/sales?${RANGE}`);
    expect(sales.by_payment_method).toEqual([
      { method: 'Cash', revenue: 5000, count: 1 },
      { method: 'M-Pesa', revenue: 15000, count: 2 },
      { method: 'Tigo Pesa', revenue: 0, count: 0 },
      { method: 'Airtel Money', revenue: 0, count: 0 },
      { method: 'Bank', revenue: 0, count: 0 },
      { method: 'Credit', revenue: 5000, count: 1 },
    ]);
    expect(sales.totals).toMatchObject({ revenue: 25000, transaction_count: 2 });
  });

  it('the cash-up counts the money parts as takings, not the credit part', async () => {
    expect((await get(`/analytics/cashflow?${RANGE}`)).money_in).toEqual({
      sales: { Cash: 8000, 'M-Pesa': 15000, 'Tigo Pesa': 0, 'Airtel Money': 0, Bank: 0 },
      credit_payments: { Cash: 1000, 'M-Pesa': 0, 'Tigo Pesa': 0, 'Airtel Money': 0, Bank: 0 },
      total: 24000,
    });
    expect((await get(`/analytics/cashflow?${RANGE}`)).money_out.refunds).toBe(3000);
  });

  it('a refunded split credit sale gives back what was paid: its money parts and what the tab had been paid', async () => {
    t.clock.advance(60_000);
    const res = await t.request('POST', `/pos/transactions/${onTab}/refund`, { token: owner.token, body: { reason: 'returned' } });
    expect(res.status, res.text).toBe(200);
    // 3,000 (the soap) + 7,500 M-Pesa + the 1,000 paid on the tab; the 4,000 still owed is written off, not paid out.
    expect((await get(`/analytics/cashflow?${RANGE}`)).money_out.refunds).toBe(11500);
  });
});

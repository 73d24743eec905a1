import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/**
 * Airtel Money goes beyond the contract's five payment methods: a sale and a credit payment made
 * with it land in every figure that splits by method. One shop, Dar es Salaam (UTC+3), 2026-05-04:
 *   10:00  A×2 Airtel Money  6,000
 *   10:01  A×1 Cash          3,000
 *   10:02  A×1 Credit        3,000 (Halima's tab), then 2,000 paid on it by Airtel Money
 */
describe('Airtel Money as a payment method', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.advance(Date.parse('2026-05-04T10:00:00+03:00') - t.clock.now());
    owner = await registerOwner(t);
    const send = async (path: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', path, { token: owner.token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.data;
    };
    const a = (await send('/inventory/products', { name: 'Sukari 1kg', selling_price: 3000, cost_price: 2000, stock: 50 })).id as string;
    const customer = (await send('/customers', { name: 'Halima Said' })).id as string;
    await send('/pos/sale', {
      lines: [{ product_id: a, qty: 2 }],
      payment_method: 'Airtel Money',
      payment_reference: 'MP240504.1000.A12345',
    });
    t.clock.advance(60_000);
    await send('/pos/sale', { lines: [{ product_id: a, qty: 1 }], payment_method: 'Cash' });
    t.clock.advance(60_000);
    await send('/pos/sale', { lines: [{ product_id: a, qty: 1 }], payment_method: 'Credit', customer_id: customer });
    const paid = await send(`/credits/customers/${customer}/payments`, {
      amount: 2000,
      method: 'Airtel Money',
      reference: 'MP240504.1002.B67890',
    });
    expect(paid).toMatchObject({ amount: 2000, method: 'Airtel Money', allocations: [{ amount: 2000 }] });
  });
  afterAll(() => t.close());

  const get = async (path: string) => {
    const res = await t.request('GET', path, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const RANGE = 'date_from=2026-05-04&date_to=2026-05-04';

  it('the sales summary has its own airtel_money_total', async () => {
    expect(await get(`/pos/summary?${RANGE}`)).toMatchObject({
      total_sales: 12000,
      transaction_count: 3,
      cash_total: 3000,
      mpesa_total: 0,
      tigo_pesa_total: 0,
      airtel_money_total: 6000,
      bank_total: 0,
      credit_total: 3000,
    });
  });

  it('the payment mix and the sales report list it after Tigo Pesa', async () => {
    expect((await get(`/analytics/payment-mix?${RANGE}`)).payment_mix).toEqual({
      Cash: 3000,
      'M-Pesa': 0,
      'Tigo Pesa': 0,
      'Airtel Money': 6000,
      Bank: 0,
      Credit: 3000,
    });
    expect((await get(`/analytics/sales?${RANGE}`)).by_payment_method).toEqual([
      { method: 'Cash', revenue: 3000, count: 1 },
      { method: 'M-Pesa', revenue: 0, count: 0 },
      { method: 'Tigo Pesa', revenue: 0, count: 0 },
      { method: 'Airtel Money', revenue: 6000, count: 1 },
      { method: 'Bank', revenue: 0, count: 0 },
      { method: 'Credit', revenue: 3000, count: 1 },
    ]);
  });

  it('the cash-up splits takings and credit payments by method, Airtel Money included', async () => {
    expect((await get(`/analytics/cashflow?${RANGE}`)).money_in).toEqual({
      sales: { Cash: 3000, 'M-Pesa': 0, 'Tigo Pesa': 0, 'Airtel Money': 6000, Bank: 0 },
      credit_payments: { Cash: 0, 'M-Pesa': 0, 'Tigo Pesa': 0, 'Airtel Money': 2000, Bank: 0 },
      total: 11000,
    });
  });
});

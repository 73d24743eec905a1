import { Envelope, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('POST /pos/sale: cash tendered and change', () => {
  let t: TestApp;
  let owner: Session;
  let sugar: { id: string };
  let soap: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
    const product = async (body: Record<string, unknown>) =>
      (await t.request('POST', '/inventory/products', { token: owner.token, body: { stock: 100, ...body } })).body.data as { id: string };
    sugar = await product({ name: 'Sukari 1kg', selling_price: 3200 });
    soap = await product({ name: 'Sabuni', selling_price: 1550.5 });
  });
  afterAll(() => t.close());

  const sell = (body: Record<string, unknown>) => t.request('POST', '/pos/sale', { token: owner.token, body });
  const stock = async (id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: owner.token })).body.data.stock as number;

  it('keeps the tender and answers the change, to the cent, and reads them back', async () => {
    const res = await sell({
      lines: [
        { product_id: sugar.id, qty: 3 },
        { product_id: soap.id, qty: 1 },
      ],
      payment_method: 'Cash',
      discount_pct: 10,
      cash_tendered: 20000,
    });
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    // 9,600 + 1,550.50 = 11,150.50; less 10 % (1,115.05) = 10,035.45; change from 20,000 = 9,964.55.
    expect(sale).toMatchObject({ total: 10035.45, cash_tendered: 20000, change_given: 9964.55, source: 'online' });
    expect(sale.received_at).toBe(sale.created_at);
    const read = await t.request('GET', `/pos/transactions/${sale.id}`, { token: owner.token });
    expect(read.body.data).toMatchObject({ cash_tendered: 20000, change_given: 9964.55 });
  });

  it('takes the exact amount (no change) and answers null for both when no tender is given', async () => {
    const exact = await sell({ lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'Cash', cash_tendered: 3200 });
    expect(exact.body.data).toMatchObject({ total: 3200, cash_tendered: 3200, change_given: 0 });
    const none = await sell({ lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'Cash' });
    expect(none.body.data).toMatchObject({ total: 3200, cash_tendered: null, change_given: null });
  });

  it('refuses a tender short of the total by one cent, naming the field, and sells nothing', async () => {
    const before = await stock(soap.id);
    const res = await sell({ lines: [{ product_id: soap.id, qty: 2 }], payment_method: 'Cash', cash_tendered: 3100.99 });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({
      message: "cash_tendered TZS 3,100.99 is less than the sale's total of TZS 3,101",
      errors: [{ code: 'VALIDATION_ERROR', field: 'cash_tendered' }],
    });
    expect(await stock(soap.id)).toBe(before);
  });

  it('refuses a tender on a sale not paid in cash, and a malformed one, naming the field', async () => {
    const mpesa = await sell({ lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'M-Pesa', cash_tendered: 5000 });
    expect(mpesa.status, mpesa.text).toBe(400);
    expect(mpesa.body).toMatchObject({ message: 'cash_tendered is only for a cash sale', errors: [{ field: 'cash_tendered' }] });
    for (const cash_tendered of [-1, 10.001, '5000']) {
      const bad = await sell({ lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'Cash', cash_tendered });
      expect(bad.status, bad.text).toBe(400);
      expect(bad.body.errors[0].field).toBe('cash_tendered');
    }
  });
  it('refuses a tender leaving more than TZS 100,000 in change (ten of the largest note), and takes one leaving exactly that', async () => {
    const before = await stock(sugar.id);
    for (const cash_tendered of [1e12, 103_200.01]) {
      const res = await sell({ lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'Cash', cash_tendered });
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'cash_tendered' })]);
    }
    const huge = await sell({ lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'Cash', cash_tendered: 1e12 });
    expect(huge.body.message).toBe(
      'cash_tendered TZS 1,000,000,000,000 would leave TZS 999,999,996,800 in change, more than TZS 100,000 (ten of the largest note): check the amount',
    );
    expect(await stock(sugar.id)).toBe(before);
    const most = await sell({ lines: [{ product_id: sugar.id, qty: 1 }], payment_method: 'Cash', cash_tendered: 103_200 });
    expect(most.status, most.text).toBe(201);
    expect(most.body.data).toMatchObject({ total: 3200, cash_tendered: 103_200, change_given: 100_000 });
  });
});

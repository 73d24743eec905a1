import { Envelope, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, e164, registerOwner, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('POST /pos/sale', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const product = async (s: { token: string }, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/inventory/products', { token: s.token, body: { stock: 100, ...body } });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: string; name: string };
  };
  const sell = (s: { token: string }, body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.request('POST', '/pos/sale', { token: s.token, body, headers });
  const stockOf = async (s: { token: string }, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;

  it('records a sale at the server’s prices with exact totals, merged lines, number and receipt number (201)', async () => {
    const owner = await registerOwner(t, { shop: { name: 'Mama Asha Duka' } });
    const sugar = await product(owner, { name: 'Sukari 1kg', selling_price: 3200, cost_price: 2800 });
    const soap = await product(owner, { name: 'Sabuni', selling_price: 1550.5 });
    const res = await sell(owner, {
      lines: [
        { product_id: sugar.id, qty: 2 },
        { product_id: soap.id, qty: 1 },
        { product_id: sugar.id, qty: 1 },
      ],
      payment_method: 'M-Pesa',
      payment_reference: 'QK71ABC',
      till_number: 'T1',
      notes: 'customer asked for bag',
    });
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    expect(sale).toMatchObject({
      number: 1,
      receipt_number: 'MAD-000001',
      status: 'paid',
      payment_method: 'M-Pesa',
      payment_reference: 'QK71ABC',
      subtotal: 11150.5,
      discount: 0,
      tax: 0,
      total: 11150.5,
      source: 'online',
      cashier_id: owner.userId,
      store_id: owner.storeId,
      price_mode: 'retail',
    });
    expect(sale.lines.map((l) => [l.product_name, l.qty, l.unit_price, l.line_total])).toEqual([
      ['Sukari 1kg', 3, 3200, 9600],
      ['Sabuni', 1, 1550.5, 1550.5],
    ]);
    expect(await stockOf(owner, sugar.id)).toBe(97);
    expect(await stockOf(owner, soap.id)).toBe(99);
    const second = await sell(owner, { lines: [{ product_id: soap.id, qty: 1 }], payment_method: 'Cash' });
    expect(second.body.data).toMatchObject({ number: 2, receipt_number: 'MAD-000002' });
  });

  it('applies a discount and the VAT contained in prices when the store charges VAT', async () => {
    const owner = await registerOwner(t);
    await t.db.db.updateTable('stores').set({ vat_enabled: 1 }).where('id', '=', owner.storeId).execute();
    const oil = await product(owner, { name: 'Mafuta 1L', selling_price: 118, tax_rate: 18 });
    const rice = await product(owner, { name: 'Mchele 1kg', selling_price: 100, tax_rate: 0 });
    const res = await sell(owner, {
      lines: [
        { product_id: oil.id, qty: 1 },
        { product_id: rice.id, qty: 1 },
      ],
      payment_method: 'Cash',
      discount_pct: 20,
    });
    // subtotal 218.00; discount 43.60; total 174.40; VAT = 118 × 0.8 × 18/118 = 14.40 on the oil only.
    expect(res.body.data).toMatchObject({ subtotal: 218, discount_pct: 20, discount: 43.6, total: 174.4, tax: 14.4 });
    expect(res.body.data.lines.map((l: { discount: number; tax: number }) => [l.discount, l.tax])).toEqual([
      [23.6, 14.4],
      [20, 0],
    ]);
  });

  it('refuses a discount from a cashier without the discount permission (403), writing nothing', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const p = await product(owner, { name: 'Chai', selling_price: 500 });
    const res = await sell(staff, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash', discount_pct: 10 });
    expect(res.status).toBe(403);
    expect(await stockOf(owner, p.id)).toBe(100);
    expect((await sell(staff, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash' })).status).toBe(201);
  });

  it('uses wholesale prices from the minimum quantity, only for wholesale shops', async () => {
    const wholesale = await registerOwner(t, { shop: { name: 'Jumla Traders', business_type: 'retail_wholesale' } });
    const sugar = await product(wholesale, { name: 'Sukari 50kg', selling_price: 160000, wholesale_price: 150000, wholesale_min_qty: 5 });
    const res = await sell(wholesale, { lines: [{ product_id: sugar.id, qty: 5 }], payment_method: 'Bank', price_mode: 'wholesale' });
    expect(res.body.data).toMatchObject({ price_mode: 'wholesale', total: 750000 });
    const retailShop = await registerOwner(t);
    const p = await product(retailShop, { name: 'x', selling_price: 10, wholesale_price: 8 });
    const refused = await sell(retailShop, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash', price_mode: 'wholesale' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe('price_mode');
  });

  it('finds or creates the customer by phone, and needs a customer for credit', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Unga', selling_price: 2000 });
    const phone = uniquePhone();
    const first = await sell(owner, {
      lines: [{ product_id: p.id, qty: 1 }],
      payment_method: 'Cash',
      customer_name: 'Mama Juma',
      customer_phone: phone,
    });
    const second = await sell(owner, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash', customer_phone: e164(phone) });
    expect(first.body.data.customer_id).toBeTruthy();
    expect(second.body.data).toMatchObject({
      customer_id: first.body.data.customer_id,
      customer_name: 'Mama Juma',
      customer_phone: e164(phone),
    });
    const noCustomer = await sell(owner, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Credit' });
    expect(noCustomer.status).toBe(422);
    expect(noCustomer.body.errors[0]).toMatchObject({ code: 'BUSINESS_RULE', field: 'customer_id' });
    const credit = await sell(owner, {
      lines: [{ product_id: p.id, qty: 2 }],
      payment_method: 'Credit',
      customer_id: first.body.data.customer_id,
    });
    expect(credit.body.data).toMatchObject({ status: 'credit', total: 4000 });
    const tab = await t.db.db
      .selectFrom('credit_tabs')
      .selectAll()
      .where('transaction_id', '=', credit.body.data.id)
      .executeTakeFirstOrThrow();
    expect(tab).toMatchObject({ amount: 400000, paid_amount: 0, status: 'open', customer_id: first.body.data.customer_id });
  });

  it('respects a positive credit limit (422 CREDIT_LIMIT_EXCEEDED, nothing written)', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Mafuta 5L', selling_price: 30000 });
    const seed = await sell(owner, {
      lines: [{ product_id: p.id, qty: 1 }],
      payment_method: 'Cash',
      customer_name: 'Baba Ali',
      customer_phone: uniquePhone(),
    });
    const customerId = seed.body.data.customer_id as string;
    await t.db.db.updateTable('customers').set({ credit_limit: 5_000_000 }).where('id', '=', customerId).execute();
    expect((await sell(owner, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Credit', customer_id: customerId })).status).toBe(
      201,
    );
    const over = await sell(owner, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Credit', customer_id: customerId });
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ code: 'CREDIT_LIMIT_EXCEEDED', field: 'customer_id' });
    expect(await stockOf(owner, p.id)).toBe(98);
  });

  it('answers 409 INSUFFICIENT_STOCK naming the line and writes nothing', async () => {
    const owner = await registerOwner(t);
    const a = await product(owner, { name: 'A', selling_price: 100, stock: 5 });
    const b = await product(owner, { name: 'B', selling_price: 100, stock: 1 });
    const res = await sell(owner, {
      lines: [
        { product_id: a.id, qty: 2 },
        { product_id: b.id, qty: 2 },
      ],
      payment_method: 'Cash',
    });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      code: 'INSUFFICIENT_STOCK',
      field: 'lines.1.qty',
      message: 'not enough stock of B: 1 available',
    });
    expect([await stockOf(owner, a.id), await stockOf(owner, b.id)]).toEqual([5, 1]);
    expect((await t.request('GET', '/pos/transactions', { token: owner.token })).body.meta.total).toBe(0);
  });

  it('sells the last 10 units exactly once across 50 concurrent sales', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Last ten', selling_price: 1000, stock: 10 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => sell(owner, { lines: [{ product_id: p.id, qty: 1 }], payment_method: 'Cash' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(40);
    expect(await stockOf(owner, p.id)).toBe(0);
    const numbers = results.filter((r) => r.status === 201).map((r) => r.body.data.number as number);
    expect(numbers.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('never creates a second transaction for a retry with the same Idempotency-Key or id', async () => {
    const owner = await registerOwner(t);
    const p = await product(owner, { name: 'Retry me', selling_price: 700 });
    const body = { lines: [{ product_id: p.id, qty: 2 }], payment_method: 'Cash' };
    const first = await sell(owner, body, { 'idempotency-key': 'till-1-sale-42' });
    const again = await sell(owner, body, { 'idempotency-key': 'till-1-sale-42' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    const other = await sell(owner, { ...body, payment_method: 'M-Pesa' }, { 'idempotency-key': 'till-1-sale-42' });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].code).toBe('IDEMPOTENCY_MISMATCH');

    const id = '0194f2c0-1234-7abc-8def-0123456789ab';
    const byId = await sell(owner, { ...body, id });
    const byIdAgain = await sell(owner, { ...body, id });
    expect(byId.body.data.id).toBe(id);
    expect(byIdAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(byIdAgain.body.data.number).toBe(byId.body.data.number);
    const parallel = await Promise.all([1, 2, 3].map(() => sell(owner, body, { 'idempotency-key': 'parallel-key' })));
    expect(parallel.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect((await t.request('GET', '/pos/transactions', { token: owner.token })).body.meta.total).toBe(3);
    expect(await stockOf(owner, p.id)).toBe(94);
  });

  it('refuses unknown or other organisations’ products and customers (404) and bad input (400 naming fields)', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const theirs = await product(other, { name: 'Theirs', selling_price: 1 });
    const res = await sell(owner, { lines: [{ product_id: theirs.id, qty: 1 }], payment_method: 'Cash' });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].field).toBe('lines.0.product_id');
    const bad = await sell(owner, { lines: [{ product_id: theirs.id, qty: 0 }], payment_method: 'Cheque', discount_pct: 150 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['discount_pct', 'lines.0.qty', 'payment_method']);
    expect((await sell(owner, { lines: [], payment_method: 'Cash' })).body.errors[0]).toMatchObject({
      field: 'lines',
      message: 'must have at least one line',
    });
  });
});

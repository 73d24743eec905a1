/**
 * Issue 51: selling by weight and volume. A measured product's quantities take up to 3 decimals
 * in its unit, are kept as integer counts (grams of a kg product), and its line is priced once,
 * rounded half up to the shilling; a piece product stays whole.
 */
import { Envelope, newId, Product, PushResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('POST /pos/sale and sync push: measured quantities', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
  });
  afterAll(() => t.close());

  const product = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', '/inventory/products', { token: owner.token, body });
    expect(res.status, res.text).toBe(200);
    return Envelope(Product).parse(res.body).data;
  };
  const read = async (id: string) =>
    Envelope(Product).parse((await t.request('GET', `/inventory/products/${id}`, { token: owner.token })).body).data;
  const sell = (body: Record<string, unknown>) => t.request('POST', '/pos/sale', { token: owner.token, body });
  /** The stored count: grams of a kg product. */
  const counted = async (id: string) =>
    Number(
      (
        await t.db.db
          .selectFrom('product_stock')
          .select('qty')
          .where('org_id', '=', owner.orgId)
          .where('store_id', '=', owner.storeId)
          .where('product_id', '=', id)
          .executeTakeFirstOrThrow()
      ).qty,
    );
  const salesOf = async (id: string) =>
    (
      await t.db.db
        .selectFrom('transaction_lines')
        .select(['qty', 'line_total'])
        .where('org_id', '=', owner.orgId)
        .where('product_id', '=', id)
        .execute()
    ).map((l) => [Number(l.qty), Number(l.line_total)]);

  it('sells 0.5 kg at 3,250/kg for 1,625 online and 1.25 kg more from a till, stock exact to the gram', async () => {
    const sugar = await product({ name: 'Sukari', unit: 'kg', selling_price: 3250, stock: 10 });
    expect(sugar).toMatchObject({ unit: 'kg', stock: 10 });
    expect(await counted(sugar.id)).toBe(10_000);

    const res = await sell({ lines: [{ product_id: sugar.id, qty: 0.5 }], payment_method: 'Cash', cash_tendered: 2000 });
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    expect(sale).toMatchObject({ subtotal: 1625, total: 1625, change_given: 375 });
    expect(sale.lines).toEqual([
      expect.objectContaining({ product_id: sugar.id, qty: 0.5, unit: 'kg', unit_price: 3250, line_total: 1625 }),
    ]);
    expect((await read(sugar.id)).stock).toBe(9.5);
    expect(await counted(sugar.id)).toBe(9_500);
    const again = await t.request('GET', `/pos/transactions/${sale.id}`, { token: owner.token });
    expect(again.body.data.lines[0]).toMatchObject({ qty: 0.5, unit: 'kg', line_total: 1625 });

    // The till weighed 1.25 kg offline (4,062.50 rounds half up to 4,063) and pushes it as a sale.
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    const pushed = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: {
        device_id,
        mutations: [
          {
            id: newId(),
            seq: 1,
            type: 'sale.create',
            created_at: new Date(t.clock.now() - 60_000).toISOString(),
            payload: {
              id: newId(),
              client_receipt_number: 'T1-1',
              lines: [{ product_id: sugar.id, qty: 1.25, unit_price: 3250 }],
              payment_method: 'Cash',
              cash_tendered: 5000,
            },
          },
        ],
      },
    });
    expect(pushed.status, pushed.text).toBe(200);
    const [result] = Envelope(PushResponse).parse(pushed.body).data.results;
    expect(result).toMatchObject({ status: 'applied', result: { total: 4063 } });
    expect(result!.conflicts).toBeUndefined();
    expect((await read(sugar.id)).stock).toBe(8.25);
    expect(await counted(sugar.id)).toBe(8_250);
    const booked = (await t.request('GET', `/pos/transactions/${result!.result!.transaction_id}`, { token: owner.token })).body.data;
    expect(booked).toMatchObject({ total: 4063, change_given: 937, lines: [{ qty: 1.25, unit: 'kg', line_total: 4063 }] });
    expect(await salesOf(sugar.id)).toEqual(
      expect.arrayContaining([
        [500, 162_500],
        [1250, 406_300],
      ]),
    );
  });

  it('rounds a 0.333 kg line half up to the shilling, once per line', async () => {
    // 1,550 × 0.333 = 516.15 → 516; 1,550 × 0.335 = 519.25 → 519 (and 0.5 kg of 1,001 = 500.5 → 501).
    const rice = await product({ name: 'Mchele', unit: 'kg', selling_price: 1550, stock: 5 });
    const odd = await product({ name: 'Maharage', unit: 'kg', selling_price: 1001, stock: 5 });
    const res = await sell({
      lines: [
        { product_id: rice.id, qty: 0.333 },
        { product_id: odd.id, qty: 0.5 },
      ],
      payment_method: 'Cash',
    });
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    expect(sale.lines.map((l) => [l.qty, l.line_total])).toEqual(
      expect.arrayContaining([
        [0.333, 516],
        [0.5, 501],
      ]),
    );
    expect(sale).toMatchObject({ subtotal: 1017, total: 1017 });
    expect((await read(rice.id)).stock).toBe(4.667);
    const more = await sell({ lines: [{ product_id: rice.id, qty: 0.335 }], payment_method: 'Cash' });
    expect(more.body.data).toMatchObject({ total: 519, lines: [{ qty: 0.335, line_total: 519 }] });
  });

  it('merges two lines of one measured product by their grams', async () => {
    const flour = await product({ name: 'Unga', unit: 'kg', selling_price: 1800, stock: 3 });
    const res = await sell({
      lines: [
        { product_id: flour.id, qty: 0.1 },
        { product_id: flour.id, qty: 0.2 },
      ],
      payment_method: 'Cash',
    });
    expect(res.status, res.text).toBe(201);
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; in grams it is 300.
    expect(res.body.data).toMatchObject({ total: 540, lines: [{ qty: 0.3, line_total: 540 }] });
    expect((await read(flour.id)).stock).toBe(2.7);
  });

  it('refuses half a soap bar and 1.2345 kg, naming the line, and writes nothing', async () => {
    const soap = await product({ name: 'Sabuni', selling_price: 1000, stock: 10 });
    const oil = await product({ name: 'Mafuta', unit: 'l', selling_price: 4500, stock: 20 });
    const half = await sell({
      lines: [
        { product_id: oil.id, qty: 1 },
        { product_id: soap.id, qty: 0.5 },
      ],
      payment_method: 'Cash',
    });
    expect(half.status, half.text).toBe(400);
    expect(half.body).toMatchObject({
      message: 'lines.1.qty a product sold by the piece takes whole numbers',
      errors: [{ code: 'VALIDATION_ERROR', field: 'lines.1.qty', message: 'a product sold by the piece takes whole numbers' }],
    });
    const fine = await sell({ lines: [{ product_id: oil.id, qty: 1.2345 }], payment_method: 'Cash' });
    expect(fine.status, fine.text).toBe(400);
    expect(fine.body.errors[0]).toMatchObject({ code: 'VALIDATION_ERROR', field: 'lines.0.qty' });
    expect([(await read(soap.id)).stock, (await read(oil.id)).stock]).toEqual([10, 20]);
    expect([await salesOf(soap.id), await salesOf(oil.id)]).toEqual([[], []]);
  });

  it('refuses a pushed half soap bar as a rejected mutation, nothing booked', async () => {
    const soap = await product({ name: 'Sabuni ya kipande', selling_price: 1000, stock: 10 });
    const device_id = newId();
    await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 2' } });
    const lines = [{ product_id: soap.id, qty: 0.5, unit_price: 1000 }];
    const res = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: {
        device_id,
        mutations: [
          {
            id: newId(),
            seq: 1,
            type: 'sale.create',
            created_at: new Date(t.clock.now() - 60_000).toISOString(),
            payload: { id: newId(), client_receipt_number: 'T2-1', lines, payment_method: 'Cash', cash_tendered: 1000 },
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.results[0]).toMatchObject({
      status: 'rejected',
      error: { code: 'VALIDATION_ERROR', message: 'lines.0.qty a product sold by the piece takes whole numbers' },
    });
    expect((await read(soap.id)).stock).toBe(10);
  });

  it('answers an oversold measured line in its unit', async () => {
    const beans = await product({ name: 'Dengu', unit: 'kg', selling_price: 2000, stock: 0.25 });
    const res = await sell({ lines: [{ product_id: beans.id, qty: 0.3 }], payment_method: 'Cash' });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ message: 'not enough stock of Dengu: 0.25 available', errors: [{ field: 'lines.0.qty' }] });
    expect(await counted(beans.id)).toBe(250);
  });

  it('sells a piece product exactly as before', async () => {
    const soda = await product({ name: 'Soda', selling_price: 1000, stock: 10 });
    expect(soda).toMatchObject({ unit: 'piece', stock: 10 });
    const res = await sell({ lines: [{ product_id: soda.id, qty: 3 }], payment_method: 'Cash' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.lines).toEqual([expect.objectContaining({ qty: 3, unit: 'piece', unit_price: 1000, line_total: 3000 })]);
    expect((await read(soda.id)).stock).toBe(7);
  });
});

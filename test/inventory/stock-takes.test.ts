/**
 * Issue 52, stock-takes over real HTTP: open a count, two counters' counts summed, a sale during the
 * count not taken as missing, variance in units and at cost exact, apply once (again changes
 * nothing), a measured product counted in kg, uncounted products left or zeroed, replays of a count
 * id skipped, another organisation's count 404, bad quantities 400 naming the field.
 */
import { randomUUID } from 'node:crypto';
import { Envelope, StockAdjustment, StockTake, type Unit } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerOwner, type Session } from '../setup/factories.js';
import { csvRecords } from '../setup/reports-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('stock-takes: count the shelves, review, apply once', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = async (s: Session, method: string, path: string, body?: unknown, status = 200) => {
    const res = await t.request(method, path, { token: s.token, body });
    expect(res.status, res.text).toBe(status);
    return res.body;
  };
  const product = async (s: Session, name: string, stock: number, cost_price: number, unit: Unit = 'piece') =>
    (await call(s, 'POST', '/inventory/products', { name, unit, stock, cost_price, selling_price: cost_price * 2 })).data.id as string;
  const stockOf = async (s: Session, id: string) => (await call(s, 'GET', `/inventory/products/${id}`)).data.stock as number;
  const open = async (s: Session, product_ids: string[]) =>
    Envelope(StockTake).parse(await call(s, 'POST', '/inventory/stock-takes', { scope: 'products', product_ids })).data;
  const count = async (s: Session, takeId: string, counts: Array<Record<string, unknown>>, status = 200) =>
    call(s, 'POST', `/inventory/stock-takes/${takeId}/counts`, { counts: counts.map((c) => ({ id: randomUUID(), ...c })) }, status);
  const review = async (s: Session, takeId: string) =>
    Envelope(StockTake).parse(await call(s, 'GET', `/inventory/stock-takes/${takeId}`)).data;
  const apply = async (s: Session, takeId: string, uncounted: 'leave' | 'zero') =>
    Envelope(StockTake).parse(await call(s, 'POST', `/inventory/stock-takes/${takeId}/apply`, { uncounted })).data;
  /** The product's adjustments but its opening stock, newest first. */
  const adjustments = async (s: Session, id: string) =>
    Envelope(z.array(StockAdjustment))
      .parse(await call(s, 'GET', `/inventory/products/${id}/adjustments`))
      .data.filter((a) => a.reason !== 'initial_stock');
  const figures = (take: StockTake) =>
    Object.fromEntries(take.lines.map((l) => [l.name, [l.expected, l.counted, l.variance, l.variance_value]]));

  it('two counters summed, a sale during the count not missing, variance in units and at cost exact; apply once, again changes nothing', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, 'Soda', 24, 800);
    const sabuni = await product(owner, 'Sabuni', 10, 1250);
    const mchele = await product(owner, 'Mchele', 2.71, 1550, 'kg');
    const take = await open(owner, [soda, sabuni, mchele]);
    expect(take).toMatchObject({ status: 'open', scope: 'products', totals: { products: 3, counted: 0, variance_value: 0 } });
    expect(figures(take)).toEqual({ Mchele: [2.71, null, null, null], Sabuni: [10, null, null, null], Soda: [24, null, null, null] });

    // Two counters on two tills: 10 sodas on the shelf, 14 in the store room; then a customer buys 2.
    await count(owner, take.id, [{ product_id: soda, qty: 10, device_id: 'till-1' }]);
    t.clock.advance(60_000);
    await count(owner, take.id, [
      { product_id: soda, qty: 14, device_id: 'till-2' },
      { product_id: sabuni, qty: 7, device_id: 'till-2' },
      { product_id: mchele, qty: 2.375, device_id: 'till-2' },
    ]);
    const sale = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: soda, qty: 2 }], payment_method: 'Cash' },
    });
    expect(sale.status, sale.text).toBe(201);
    expect(await stockOf(owner, soda)).toBe(22);

    const seen = await review(owner, take.id);
    // Sold during the count is not missing: soda expected 24 (its level at its first count), counted 24.
    // Sabuni 3 short × 1,250 = −3,750; rice 0.335 kg short × 1,550/kg = 519.25 → −519 (half up, to the shilling).
    expect(figures(seen)).toEqual({
      Mchele: [2.71, 2.375, -0.335, -519],
      Sabuni: [10, 7, -3, -3750],
      Soda: [24, 24, 0, 0],
    });
    expect(seen.totals).toEqual({ products: 3, counted: 3, over: 0, short: 2, variance_value: -4269 });

    const applied = await apply(owner, take.id, 'leave');
    expect(applied.status).toBe('applied');
    expect(figures(applied)).toEqual(figures(seen));
    expect(Object.fromEntries(applied.lines.map((l) => [l.name, l.change]))).toEqual({ Mchele: -0.335, Sabuni: -3, Soda: 0 });
    expect([await stockOf(owner, soda), await stockOf(owner, sabuni), await stockOf(owner, mchele)]).toEqual([22, 7, 2.375]);
    expect((await adjustments(owner, sabuni)).map((a) => [a.qty_change, a.qty_after, a.reason])).toEqual([[-3, 7, 'stock_take']]);
    expect((await adjustments(owner, mchele)).map((a) => [a.qty_change, a.qty_after, a.reason])).toEqual([[-0.335, 2.375, 'stock_take']]);
    expect(await adjustments(owner, soda)).toEqual([]);

    // Applying again (even asking for zero) moves nothing and answers the same.
    const again = await apply(owner, take.id, 'zero');
    expect(again).toEqual(applied);
    expect([await stockOf(owner, soda), await stockOf(owner, sabuni), await stockOf(owner, mchele)]).toEqual([22, 7, 2.375]);
    expect(await adjustments(owner, sabuni)).toHaveLength(1);
    // Counting or cancelling an applied count is refused.
    await count(owner, take.id, [{ product_id: soda, qty: 1 }], 409);
    await call(owner, 'POST', `/inventory/stock-takes/${take.id}/cancel`, undefined, 409);

    // The report of past counts, and the CSV.
    const list = (await call(owner, 'GET', '/inventory/stock-takes')).data;
    expect(list.map((s: StockTake) => [s.id, s.status, s.totals.variance_value])).toEqual([[take.id, 'applied', -4269]]);
    const csv = await t.request('GET', `/inventory/stock-takes/${take.id}/export.csv`, { token: owner.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const { header, records } = csvRecords(csv.text);
    expect(header).toEqual(['product_id', 'name', 'unit', 'expected', 'counted', 'variance', 'cost_price', 'variance_value', 'change']);
    expect(records.map((r) => [r.name, r.expected, r.counted, r.variance, r.variance_value, r.change])).toEqual([
      ['Mchele', '2.71', '2.375', '-0.335', '-519', '-0.335'],
      ['Sabuni', '10', '7', '-3', '-3750', '-3'],
      ['Soda', '24', '24', '0', '0', '0'],
    ]);
  });

  it('two applies of one count at once adjust stock once; both answer the applied count', async () => {
    const owner = await registerOwner(t);
    for (let round = 0; round < 3; round++) {
      const soda = await product(owner, `Soda ${round}`, 24, 800);
      const take = await open(owner, [soda]);
      await count(owner, take.id, [{ product_id: soda, qty: 20 }]);
      const answers = await Promise.all(
        [0, 1, 2].map(() =>
          t.request('POST', `/inventory/stock-takes/${take.id}/apply`, { token: owner.token, body: { uncounted: 'leave' } }),
        ),
      );
      expect(answers.map((a) => [a.status, a.body.data.status])).toEqual([
        [200, 'applied'],
        [200, 'applied'],
        [200, 'applied'],
      ]);
      expect(await stockOf(owner, soda)).toBe(20);
      expect((await adjustments(owner, soda)).map((a) => [a.reason, a.qty_change])).toEqual([['stock_take', -4]]);
    }
  });

  it('products nobody counted: left alone, or set to zero, as the owner chooses', async () => {
    const owner = await registerOwner(t);
    const chai = await product(owner, 'Chai', 6, 300);
    const unga = await product(owner, 'Unga', 4, 1800);
    const left = await open(owner, [chai, unga]);
    await count(owner, left.id, [{ product_id: chai, qty: 6 }]);
    const leave = await apply(owner, left.id, 'leave');
    expect(figures(leave)).toEqual({ Chai: [6, 6, 0, 0], Unga: [4, null, null, null] });
    expect(await stockOf(owner, unga)).toBe(4);

    const zeroed = await open(owner, [chai, unga]);
    await count(owner, zeroed.id, [{ product_id: chai, qty: 5 }]);
    const zero = await apply(owner, zeroed.id, 'zero');
    expect(figures(zero)).toEqual({ Chai: [6, 5, -1, -300], Unga: [4, 0, -4, -7200] });
    expect(zero.totals).toEqual({ products: 2, counted: 2, over: 0, short: 2, variance_value: -7500 });
    expect([await stockOf(owner, chai), await stockOf(owner, unga)]).toEqual([5, 0]);
    expect((await adjustments(owner, unga)).map((a) => [a.qty_change, a.qty_after, a.reason])).toEqual([[-4, 0, 'stock_take']]);
  });

  it('scopes: a category counts its stocked products, all counts every stocked product but services; scope fields are checked', async () => {
    const owner = await registerOwner(t);
    const drinks = (await call(owner, 'POST', '/inventory/categories', { name: 'Vinywaji' })).data.id as string;
    const inCategory = async (name: string, extra: Record<string, unknown> = {}) =>
      (await call(owner, 'POST', '/inventory/products', { name, selling_price: 1000, stock: 3, category_id: drinks, ...extra })).data.id;
    await inCategory('Soda');
    await inCategory('Maji');
    await inCategory('Delivery fee', { is_service: true, stock: 0 });
    await product(owner, 'Sabuni', 5, 1250);
    const names = (take: StockTake) => take.lines.map((l) => l.name);
    const category = Envelope(StockTake).parse(
      await call(owner, 'POST', '/inventory/stock-takes', { scope: 'category', category_id: drinks }),
    ).data;
    expect([category.scope, category.category_id, names(category)]).toEqual(['category', drinks, ['Maji', 'Soda']]);
    const all = Envelope(StockTake).parse(await call(owner, 'POST', '/inventory/stock-takes', { scope: 'all' })).data;
    expect(names(all)).toEqual(['Maji', 'Sabuni', 'Soda']);
    const refused = async (body: Record<string, unknown>, status: number, field?: string) => {
      const res = await call(owner, 'POST', '/inventory/stock-takes', body, status);
      if (field) expect(res.errors[0].field).toBe(field);
      return res;
    };
    await refused({ scope: 'category' }, 400, 'category_id');
    await refused({ scope: 'all', category_id: drinks }, 400, 'category_id');
    await refused({ scope: 'products' }, 400, 'product_ids');
    expect((await refused({ scope: 'category', category_id: randomUUID() }, 404)).message).toBe('category not found');
  });

  it('a count sent again with the same id (a till replaying after an outage) is added once', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, 'Soda', 12, 800);
    const take = await open(owner, [soda]);
    const one = { id: randomUUID(), product_id: soda, qty: 5 };
    await count(owner, take.id, [one]);
    await count(owner, take.id, [one, one, { product_id: soda, qty: 8 }]);
    expect(figures(await review(owner, take.id))).toEqual({ Soda: [12, 13, 1, 800] });
  });

  it("another organisation's count is not found; bad quantities are 400 naming the field, writing nothing", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const soap = await product(owner, 'Sabuni', 4, 1250);
    const rice = await product(owner, 'Mchele', 3, 1550, 'kg');
    const take = await open(owner, [soap, rice]);
    const theirs = await product(other, 'Sabuni', 4, 1250);
    for (const [method, path, body] of [
      ['GET', `/inventory/stock-takes/${take.id}`, undefined],
      ['GET', `/inventory/stock-takes/${take.id}/export.csv`, undefined],
      ['POST', `/inventory/stock-takes/${take.id}/counts`, { counts: [{ id: randomUUID(), product_id: theirs, qty: 1 }] }],
      ['POST', `/inventory/stock-takes/${take.id}/apply`, { uncounted: 'zero' }],
      ['POST', `/inventory/stock-takes/${take.id}/cancel`, undefined],
    ] as const) {
      const res = await t.request(method, path, { token: other.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe('stock take not found');
    }
    expect(await call(other, 'GET', '/inventory/stock-takes')).toMatchObject({ data: [] });

    const refused = async (counts: Array<Record<string, unknown>>, field: string, message: string) => {
      const body = await count(owner, take.id, counts, 400);
      expect(body.errors[0]).toMatchObject({ field, message });
    };
    await refused([{ product_id: soap, qty: 0.5 }], 'counts.0.qty', 'a product sold by the piece takes whole numbers');
    await refused(
      [
        { product_id: rice, qty: 1 },
        { product_id: rice, qty: 1.0005 },
      ],
      'counts.1.qty',
      'at most 3 decimals',
    );
    await refused([{ product_id: soap, qty: -1 }], 'counts.0.qty', expect.any(String));
    await refused([{ product_id: theirs, qty: 1 }], 'counts.0.product_id', 'is not in this stock take');
    // Counts summed past what a store may hold (1,000,000 kg) would overflow a PostgreSQL integer: refused.
    const ton = { product_id: rice, qty: 1_000_000 };
    await refused([ton, ton, ton], 'counts.1.qty', "takes Mchele's count past the most a store may hold");
    const bad = await t.request('POST', '/inventory/stock-takes', {
      token: owner.token,
      body: { scope: 'products', product_ids: [theirs] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'product_ids.0', message: 'is not a product of this organisation' });
    expect(figures(await review(owner, take.id))).toEqual({ Mchele: [3, null, null, null], Sabuni: [4, null, null, null] });
  });
});

import { Envelope, Product, StockAdjustment } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addStore, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('inventory: stock, adjustments, price history and bad input', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const newProduct = async (s: Session, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/inventory/products', {
      token: s.token,
      body: { name: 'Mafuta ya kupikia 1L', selling_price: 5500, cost_price: 4800, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return Envelope(Product).parse(res.body).data;
  };
  const adjust = (s: { token: string }, id: string, qty_change: number, reason = 'count') =>
    t.request('POST', `/inventory/products/${id}/adjust`, { token: s.token, body: { qty_change, reason, note: 'shelf count' } });
  const adjustments = async (s: { token: string }, id: string, query = '') =>
    Envelope(z.array(StockAdjustment)).parse(
      (await t.request('GET', `/inventory/products/${id}/adjustments${query}`, { token: s.token })).body,
    ).data;

  it('adjusts stock, answers the updated product and keeps every adjustment, newest first', async () => {
    const owner = await registerOwner(t);
    const p = await newProduct(owner, { stock: 10 });
    const res = await adjust(owner, p.id, -3, 'damaged');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: p.id, stock: 7 });
    await adjust(owner, p.id, 5, 'restock');
    const list = await adjustments(owner, p.id);
    expect(list.map((a) => [a.qty_change, a.qty_after, a.reason])).toEqual([
      [5, 12, 'restock'],
      [-3, 7, 'damaged'],
      [10, 10, 'initial_stock'],
    ]);
    expect(list[0]).toMatchObject({ adjusted_by: owner.userId, store_id: owner.storeId, note: 'shelf count' });
  });

  it('honours the adjustments limit (default 50, at most 200)', async () => {
    const owner = await registerOwner(t);
    const p = await newProduct(owner, {});
    for (let i = 0; i < 55; i++) await adjust(owner, p.id, 1);
    expect(await adjustments(owner, p.id)).toHaveLength(50);
    expect(await adjustments(owner, p.id, '?limit=3')).toHaveLength(3);
    const tooMany = await t.request('GET', `/inventory/products/${p.id}/adjustments?limit=201`, { token: owner.token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0].field).toBe('limit');
  });

  it('refuses to take stock below zero (409 INSUFFICIENT_STOCK) and writes nothing', async () => {
    const owner = await registerOwner(t);
    const p = await newProduct(owner, { stock: 2 });
    const res = await adjust(owner, p.id, -3);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      code: 'INSUFFICIENT_STOCK',
      field: 'qty_change',
      message: 'not enough stock of Mafuta ya kupikia 1L: 2 available',
    });
    expect((await t.request('GET', `/inventory/products/${p.id}`, { token: owner.token })).body.data.stock).toBe(2);
    expect(await adjustments(owner, p.id)).toHaveLength(1);
  });

  it('never oversells under concurrent adjustments: 12 takes of 1 from 5 leave exactly 0', async () => {
    const owner = await registerOwner(t);
    const p = await newProduct(owner, { stock: 5 });
    const results = await Promise.all(Array.from({ length: 12 }, () => adjust(owner, p.id, -1)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    expect((await t.request('GET', `/inventory/products/${p.id}`, { token: owner.token })).body.data.stock).toBe(0);
    expect((await adjustments(owner, p.id)).filter((a) => a.qty_change === -1)).toHaveLength(5);
  });

  it('treats stock equal to the reorder point as low, and one above as not', async () => {
    const owner = await registerOwner(t);
    const atPoint = await newProduct(owner, { name: 'At point', stock: 5, reorder_point: 5 });
    const above = await newProduct(owner, { name: 'Above', stock: 6, reorder_point: 5 });
    await newProduct(owner, { name: 'Service', is_service: true, reorder_point: 5 });
    await newProduct(owner, { name: 'Inactive', stock: 0, is_active: false });
    expect(atPoint.is_low_stock).toBe(true);
    expect(above.is_low_stock).toBe(false);
    const low = Envelope(z.array(Product)).parse((await t.request('GET', '/inventory/low-stock', { token: owner.token })).body).data;
    expect(low.map((p) => [p.name, p.stock, p.is_low_stock])).toEqual([['At point', 5, true]]);
    await adjust(owner, above.id, -1);
    const after = (await t.request('GET', '/inventory/low-stock', { token: owner.token })).body.data;
    expect(after.map((p: Product) => p.name)).toEqual(['Above', 'At point']);
  });

  it('keeps stock per store: an adjustment in store A leaves store B unchanged', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Tawi la Mwenge');
    const p = await newProduct(owner, { stock: 20 });
    const switched = await t.request('POST', '/accounts/switch-store', { token: owner.token, body: { store_id: branch.id } });
    const inBranch = { token: switched.body.data.tokens.access_token as string };
    expect((await t.request('GET', `/inventory/products/${p.id}`, inBranch)).body.data.stock).toBe(0);
    expect((await adjust(inBranch, p.id, 8, 'delivery')).body.data.stock).toBe(8);
    expect((await adjust(inBranch, p.id, -9)).status).toBe(409);

    const back = await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } });
    const inMain = { token: back.body.data.access_token as string };
    expect((await t.request('GET', `/inventory/products/${p.id}`, inMain)).body.data.stock).toBe(20);
    expect(await adjustments(inMain, p.id)).toHaveLength(1);
    expect(await adjustments(inBranch, p.id)).toHaveLength(1);
  });

  it('writes a price-history row for each price or tax change, and none for other edits', async () => {
    const owner = await registerOwner(t);
    const p = await newProduct(owner, { selling_price: 1000, cost_price: 800, tax_rate: 18 });
    const history = () =>
      t.db.db
        .selectFrom('product_prices')
        .select(['selling_price', 'cost_price', 'wholesale_price', 'tax_rate'])
        .where('product_id', '=', p.id)
        .orderBy('effective_from')
        .orderBy('id')
        .execute();
    expect(await history()).toEqual([{ selling_price: 100000, cost_price: 80000, wholesale_price: null, tax_rate: 1800 }]);
    await t.request('PATCH', `/inventory/products/${p.id}`, { token: owner.token, body: { name: 'Renamed', reorder_point: 2 } });
    expect(await history()).toHaveLength(1);
    t.clock.advance(60_000);
    const res = await t.request('PATCH', `/inventory/products/${p.id}`, { token: owner.token, body: { selling_price: 1200, tax_rate: 0 } });
    expect(res.body.data).toMatchObject({ selling_price: 1200, tax_rate: 0, cost_price: 800, name: 'Renamed' });
    expect(await history()).toEqual([
      { selling_price: 100000, cost_price: 80000, wholesale_price: null, tax_rate: 1800 },
      { selling_price: 120000, cost_price: 80000, wholesale_price: null, tax_rate: 0 },
    ]);
  });

  it('records a new stock level set by PATCH as a correction', async () => {
    const owner = await registerOwner(t);
    const p = await newProduct(owner, { stock: 10 });
    const res = await t.request('PATCH', `/inventory/products/${p.id}`, { token: owner.token, body: { stock: 7 } });
    expect(res.body.data.stock).toBe(7);
    expect((await adjustments(owner, p.id))[0]).toMatchObject({ qty_change: -3, qty_after: 7, reason: 'correction' });
  });

  it('refuses stock on services', async () => {
    const owner = await registerOwner(t);
    const svc = await newProduct(owner, { name: 'Kusaga', is_service: true });
    expect((await adjust(owner, svc.id, 1)).body.errors[0].code).toBe('INVALID_STATE');
    const res = await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Svc', is_service: true, stock: 3 } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: 'stock' });
  });

  it('answers bad input with a 4xx naming the field and writes nothing', async () => {
    const owner = await registerOwner(t);
    const p = await newProduct(owner, { stock: 4 });
    const count = async () => (await t.db.db.selectFrom('products').select('id').where('org_id', '=', owner.orgId).execute()).length;
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', selling_price: -1 }, 'selling_price'],
      [{ name: 'x', cost_price: 10.555 }, 'cost_price'],
      [{ name: 'x', reorder_point: -2 }, 'reorder_point'],
      [{ name: 'x', tax_rate: 101 }, 'tax_rate'],
      [{ name: 'x', stock: 1.5 }, 'stock'],
      [{ name: '' }, 'name'],
      [{ name: 'x', category_id: 'not-a-uuid' }, 'category_id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('POST', '/inventory/products', { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const unknownCategory = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'x', category_id: '0194f2c0-0000-7000-8000-000000000000' },
    });
    expect(unknownCategory.status).toBe(404);
    expect(await count()).toBe(before);

    const zero = await adjust(owner, p.id, 0);
    expect(zero.status).toBe(400);
    expect(zero.body.errors[0]).toMatchObject({ field: 'qty_change', message: 'must not be 0' });
    const patch = await t.request('PATCH', `/inventory/products/${p.id}`, {
      token: owner.token,
      body: { selling_price: -5, name: 'Changed' },
    });
    expect(patch.status).toBe(400);
    expect((await t.request('GET', `/inventory/products/${p.id}`, { token: owner.token })).body.data).toMatchObject({
      name: 'Mafuta ya kupikia 1L',
      stock: 4,
    });
  });
});

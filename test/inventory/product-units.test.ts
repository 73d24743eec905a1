/**
 * Issue 51: a product's unit, and its quantities (`stock`, `reorder_point`, `wholesale_min_qty`)
 * given and answered in it, kept as integer counts; the unit fixed once the product has history.
 */
import { Envelope, Product, PullResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('products: unit and quantities in it', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t, {
      shop: { name: 'Duka la Jumla', business_type: 'retail_wholesale', region: 'dar-es-salaam', district: 'Kinondoni' },
    });
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>) => t.request('POST', '/inventory/products', { token: owner.token, body });
  const patch = (id: string, body: Record<string, unknown>) =>
    t.request('PATCH', `/inventory/products/${id}`, { token: owner.token, body });
  const made = async (body: Record<string, unknown>) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(200);
    return Envelope(Product).parse(res.body).data;
  };
  const stored = (id: string) =>
    t.db.db
      .selectFrom('products')
      .select(['unit', 'reorder_point', 'wholesale_min_qty'])
      .where('org_id', '=', owner.orgId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('creates a kg product with its quantities in kg, kept in grams, and answers them the same everywhere', async () => {
    const sugar = await made({
      name: 'Sukari ya jumla',
      barcode: '6200000000051',
      unit: 'kg',
      selling_price: 3250,
      wholesale_price: 3000,
      wholesale_min_qty: 2.5,
      stock: 12.345,
      reorder_point: 0.75,
    });
    expect(sugar).toMatchObject({ unit: 'kg', stock: 12.345, reorder_point: 0.75, wholesale_min_qty: 2.5, is_low_stock: false });
    expect(await stored(sugar.id)).toEqual({ unit: 'kg', reorder_point: 750, wholesale_min_qty: 2500 });
    const byCode = await t.request('GET', '/inventory/products/barcode/6200000000051', { token: owner.token });
    expect(byCode.body.data, byCode.text).toMatchObject({ id: sugar.id, stock: 12.345 });
    const listed = await t.request('GET', '/inventory/products?search=Sukari%20ya', { token: owner.token });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: sugar.id, stock: 12.345, reorder_point: 0.75 })]);
    // A till's pull: the product and its level row, both in kg.
    const pulled = Envelope(PullResponse).parse((await t.request('GET', '/sync/pull', { token: owner.token })).body).data.changes;
    expect(pulled.find((c) => c.entity === 'product' && c.id === sugar.id)!.data).toMatchObject({ stock: 12.345, unit: 'kg' });
    expect(pulled.find((c) => c.entity === 'stock' && c.id === sugar.id)!.data).toMatchObject({ stock: 12.345 });
  });

  it('gives a measured product a reorder point of 5 of its unit when none is given, as a piece product gets 5 pieces', async () => {
    const rice = await made({ name: 'Mchele', unit: 'kg', selling_price: 1800 });
    const soap = await made({ name: 'Sabuni', selling_price: 1000 });
    expect([rice.reorder_point, soap.reorder_point, soap.unit]).toEqual([5, 5, 'piece']);
    expect((await stored(rice.id)).reorder_point).toBe(5000);
  });

  it('refuses a quantity its unit cannot take, naming the field, and creates nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ stock: 2.5 }, 'stock', 'a product sold by the piece takes whole numbers'],
      [{ reorder_point: 0.5 }, 'reorder_point', 'a product sold by the piece takes whole numbers'],
      [{ unit: 'kg', stock: 1.2345 }, 'stock', 'takes at most 3 decimals (kg)'],
      [{ unit: 'l', wholesale_min_qty: 0.0005 }, 'wholesale_min_qty', 'takes at most 3 decimals (l)'],
      [{ unit: 'kg', stock: 1_000_001 }, 'stock', 'must be at most 1,000,000 kg'],
      [{ unit: 'litre' }, 'unit', ''],
    ];
    for (const [body, field, message] of cases) {
      const res = await create({ name: 'Kosa', selling_price: 100, ...body });
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'VALIDATION_ERROR', field, ...(message ? { message } : {}) });
    }
    const named = await t.request('GET', '/inventory/products?search=Kosa', { token: owner.token });
    expect(named.body.data).toEqual([]);
    // A piece product's whole stock of a billion is as before; a measured one's million is the most.
    expect((await made({ name: 'Nafaka', unit: 'kg', selling_price: 1, stock: 1_000_000 })).stock).toBe(1_000_000);
  });

  it('changes the unit of a product with no history, keeping its reorder point in units', async () => {
    const oil = await made({ name: 'Mafuta', selling_price: 4500, reorder_point: 3 });
    const res = await patch(oil.id, { unit: 'l' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ unit: 'l', reorder_point: 3, stock: 0 });
    expect(await stored(oil.id)).toMatchObject({ unit: 'l', reorder_point: 3000 });
    // Back to pieces, 0.5 l cannot be kept as a reorder point: say so, or give it with the unit.
    expect((await patch(oil.id, { reorder_point: 0.5 })).status).toBe(200);
    const refused = await patch(oil.id, { unit: 'piece' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ field: 'reorder_point' });
    const given = await patch(oil.id, { unit: 'piece', reorder_point: 2 });
    expect(given.body.data).toMatchObject({ unit: 'piece', reorder_point: 2 });
  });

  it('refuses to change the unit once the product has a sale or a stock movement (409), and changes nothing', async () => {
    const flour = await made({ name: 'Unga', unit: 'kg', selling_price: 1800, stock: 4 });
    const moved = await patch(flour.id, { unit: 'g' });
    expect(moved.status, moved.text).toBe(409);
    expect(moved.body.errors[0]).toMatchObject({ code: 'CONFLICT', field: 'unit' });
    expect(moved.body.message).toBe(
      'unit cannot change from kg to g: Unga already has sales or stock movements kept in kg; create a new product for the new unit',
    );

    // A sale: none left on hand, but its history is in kg.
    const sold = await made({ name: 'Sukari guru', unit: 'kg', selling_price: 2800, stock: 1 });
    const sale = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: sold.id, qty: 1 }], payment_method: 'Cash' },
    });
    expect(sale.status, sale.text).toBe(201);
    const after = await patch(sold.id, { unit: 'piece', reorder_point: 1, selling_price: 2900 });
    expect(after.status, after.text).toBe(409);
    expect(await stored(sold.id)).toMatchObject({ unit: 'kg', reorder_point: 5000 });
    expect((await t.request('GET', `/inventory/products/${sold.id}`, { token: owner.token })).body.data).toMatchObject({
      selling_price: 2800,
    });
    // Naming the unit it already has is no change.
    expect((await patch(sold.id, { unit: 'kg', selling_price: 2900 })).status).toBe(200);
  });

  it('prices wholesale from a measured minimum by grams', async () => {
    const beans = await made({
      name: 'Maharage',
      unit: 'kg',
      selling_price: 3000,
      wholesale_price: 2600,
      wholesale_min_qty: 2.5,
      stock: 20,
    });
    const sell = (qty: number) =>
      t.request('POST', '/pos/sale', {
        token: owner.token,
        body: { lines: [{ product_id: beans.id, qty }], payment_method: 'Cash', price_mode: 'wholesale' },
      });
    // 2.499 kg is short of 2.5: retail (7,497); 2.5 kg reaches it: 2,600 × 2.5 = 6,500.
    expect((await sell(2.499)).body.data).toMatchObject({ total: 7497, lines: [{ unit_price: 3000 }] });
    expect((await sell(2.5)).body.data).toMatchObject({ total: 6500, lines: [{ unit_price: 2600, qty: 2.5 }] });
  });
});

/**
 * Issue 51: stock outside the sale in the product's unit. A kg product's adjustments, movements,
 * low-stock list, deliveries and inventory report speak kilos (stored as grams); a piece product's
 * stay whole and refuse a fraction.
 */
import { Envelope, Product, StockAdjustment, type Unit } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerOwner, type Session } from '../setup/factories.js';
import { csvRecords } from '../setup/reports-factories.js';
import { newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe("inventory: stock in a product's unit", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  /** Made through the API at stock 0; the unit is set on the row (its API input is another piece of issue 51). */
  const newProduct = async (s: Session, body: Record<string, unknown>, unit: Unit = 'piece', counts: { reorder?: number } = {}) => {
    const res = await t.request('POST', '/inventory/products', {
      token: s.token,
      body: { name: 'Sukari', selling_price: 3200, cost_price: 2750, stock: 0, ...body },
    });
    expect(res.status, res.text).toBe(200);
    const id: string = res.body.data.id;
    await t.db.db
      .updateTable('products')
      .set({ unit, ...(counts.reorder === undefined ? {} : { reorder_point: counts.reorder }) })
      .where('org_id', '=', s.orgId)
      .where('id', '=', id)
      .execute();
    return id;
  };
  const adjust = (s: Session, id: string, qty_change: number, reason = 'count') =>
    t.request('POST', `/inventory/products/${id}/adjust`, { token: s.token, body: { qty_change, reason } });
  const adjustments = async (s: Session, id: string) =>
    Envelope(z.array(StockAdjustment)).parse((await t.request('GET', `/inventory/products/${id}/adjustments`, { token: s.token })).body)
      .data;
  const storedCount = async (s: Session, id: string) =>
    Number(
      (
        await t.db.db
          .selectFrom('product_stock')
          .select('qty')
          .where('org_id', '=', s.orgId)
          .where('store_id', '=', s.storeId)
          .where('product_id', '=', id)
          .executeTakeFirst()
      )?.qty ?? 0,
    );

  it('adjusts a kg product by +12.5 then −0.75 to exactly 11.75 kg, kept as grams, and lists the moves in kg', async () => {
    const owner = await registerOwner(t);
    const id = await newProduct(owner, { name: 'Sukari' }, 'kg');
    const up = await adjust(owner, id, 12.5, 'received');
    expect(up.status, up.text).toBe(200);
    expect(up.body.data).toMatchObject({ id, unit: 'kg', stock: 12.5 });
    const down = await adjust(owner, id, -0.75, 'damaged');
    expect(down.status, down.text).toBe(200);
    expect(down.body.data.stock).toBe(11.75);
    expect(await storedCount(owner, id)).toBe(11_750);
    expect((await adjustments(owner, id)).map((a) => [a.qty_change, a.qty_after, a.reason])).toEqual([
      [-0.75, 11.75, 'damaged'],
      [12.5, 12.5, 'received'],
    ]);
    // More than there is answers the level in kg too.
    const over = await adjust(owner, id, -12);
    expect(over.status).toBe(409);
    expect(over.body.errors[0]).toMatchObject({ field: 'qty_change', message: 'not enough stock of Sukari: 11.75 available' });
  });

  it('refuses 0.5 of a piece product (400 naming qty_change) and a fourth decimal of a kg one, writing nothing', async () => {
    const owner = await registerOwner(t);
    const soap = await newProduct(owner, { name: 'Sabuni', stock: 4 });
    const half = await adjust(owner, soap, 0.5);
    expect(half.status).toBe(400);
    expect(half.body.errors[0]).toMatchObject({ field: 'qty_change', message: 'a product sold by the piece takes whole numbers' });
    const kg = await newProduct(owner, { name: 'Mchele' }, 'kg');
    const tooFine = await adjust(owner, kg, 0.0005);
    expect(tooFine.status).toBe(400);
    expect(tooFine.body.errors[0].field).toBe('qty_change');
    expect(await storedCount(owner, soap)).toBe(4);
    expect(await storedCount(owner, kg)).toBe(0);
    expect((await adjustments(owner, soap)).map((a) => a.qty_change)).toEqual([4]);
    expect(await adjustments(owner, kg)).toEqual([]);
  });

  it('lists a kg product at its reorder point (2 kg) as low stock, in kg', async () => {
    const owner = await registerOwner(t);
    const id = await newProduct(owner, { name: 'Maharage' }, 'kg', { reorder: 2000 });
    await adjust(owner, id, 2.001);
    const low = async () =>
      Envelope(z.array(Product))
        .parse((await t.request('GET', '/inventory/low-stock', { token: owner.token })).body)
        .data.map((p) => [p.name, p.stock, p.reorder_point, p.unit]);
    expect(await low()).toEqual([]);
    await adjust(owner, id, -0.001);
    expect(await low()).toEqual([['Maharage', 2, 2, 'kg']]);
  });

  it('receives a delivery of 25.5 kg exactly: stock, line, value (rounded once to the shilling) and item count', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const sugar = await newProduct(owner, { name: 'Sukari' }, 'kg');
    const soap = await newProduct(owner, { name: 'Sabuni' });
    const res = await t.request('POST', `/suppliers/${supplier.id}/deliveries`, {
      token: owner.token,
      body: {
        status: 'delivered',
        lines: [
          { product_id: sugar, qty: 25.5, unit_cost: 2755.5 },
          { product_id: soap, qty: 12, unit_cost: 450 },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    // 25.5 × 2,755.50 = 70,265.25 → 70,265; 12 × 450 = 5,400.
    expect(res.body.data).toMatchObject({ total_value: 75_665, items_count: 13 });
    expect(res.body.data.lines.map((l: { qty: number }) => l.qty).sort()).toEqual([12, 25.5]);
    expect(await storedCount(owner, sugar)).toBe(25_500);
    expect((await t.request('GET', `/inventory/products/${sugar}`, { token: owner.token })).body.data.stock).toBe(25.5);
    expect((await adjustments(owner, sugar)).map((a) => [a.qty_change, a.qty_after, a.reason])).toEqual([[25.5, 25.5, 'delivery']]);
    const piece = await t.request('POST', `/suppliers/${supplier.id}/deliveries`, {
      token: owner.token,
      body: { lines: [{ product_id: soap, qty: 1.5, unit_cost: 450 }] },
    });
    expect(piece.status).toBe(400);
    expect(piece.body.errors[0].field).toBe('lines.0.qty');
  });

  it('writes a kg product in the inventory report in kg, with its unit, valued once per product', async () => {
    const owner = await registerOwner(t);
    const sugar = await newProduct(owner, { name: 'Sukari', cost_price: 2755.5, selling_price: 3200 }, 'kg');
    const soap = await newProduct(owner, { name: 'Sabuni', cost_price: 400, selling_price: 500 });
    await adjust(owner, sugar, 11.75);
    await adjust(owner, soap, 3);
    const res = await t.request('POST', '/reports/generate', { token: owner.token, body: { report_type: 'inventory', format: 'csv' } });
    expect(res.status, res.text).toBe(200);
    // 11.75 × 2,755.50 = 32,377.125 → 32,377; 11.75 × 3,200 = 37,600.
    expect(csvRecords(res.text).records.map((r) => Object.values(r))).toEqual([
      ['product', '', 'Sabuni', '', '3', 'piece', '400.00', '500.00', '1200.00', '1500.00', ''],
      ['product', '', 'Sukari', '', '11.75', 'kg', '2755.50', '3200.00', '32377.00', '37600.00', ''],
      ['category', '', '', '', '', '', '', '', '33577.00', '39100.00', ''],
      ['total', '', '', '', '', '', '', '', '33577.00', '39100.00', ''],
    ]);
    const json = await t.request('POST', '/reports/generate', { token: owner.token, body: { report_type: 'inventory', format: 'json' } });
    expect(json.body.data.totals).toEqual({ products: 2, value_at_cost: 33_577, value_at_selling_price: 39_100 });
    expect(json.body.data.rows[1]).toMatchObject({ product: 'Sukari', qty: 11.75, unit: 'kg', value_at_cost: 32_377 });
  });
});

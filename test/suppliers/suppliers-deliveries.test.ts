import { Delivery, Envelope, PagedEnvelope } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { newDelivery, newProduct, newSupplier, productOf } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('suppliers: deliveries and the stock they bring', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const patch = (s: Session, id: string, body: Record<string, unknown>) =>
    t.request('PATCH', `/suppliers/deliveries/${id}`, { token: s.token, body });
  const adjustments = (productId: string) =>
    t.db.db
      .selectFrom('stock_adjustments')
      .select(['qty_change', 'qty_after', 'reason'])
      .where('product_id', '=', productId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  it('adds the lines to stock once when marked delivered, however often it is marked', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const unga = await newProduct(t, owner, { name: 'Unga', stock: 5 });
    const sukari = await newProduct(t, owner, { name: 'Sukari', stock: 0 });
    const created = await t.request('POST', '/suppliers/deliveries', {
      token: owner.token,
      body: {
        supplier_id: supplier.id,
        invoice_number: 'INV-2041',
        lines: [
          { product_id: unga.id, qty: 20, unit_cost: 3200 },
          { product_id: sukari.id, qty: 10, unit_cost: 2750.5 },
          { product_id: unga.id, qty: 4, unit_cost: 3200 },
        ],
      },
    });
    expect(created.status, created.text).toBe(200);
    const d = Envelope(Delivery).parse(created.body).data;
    expect(d).toMatchObject({
      supplier_id: supplier.id,
      supplier_name: supplier.name,
      status: 'expected',
      items_count: 34,
      total_value: 104_305,
      balance: 0,
      paid_amount: 0,
      is_paid: false,
      stock_added_at: null,
    });
    expect(d.lines.map((l) => [l.product_name, l.qty, l.unit_cost])).toEqual(
      expect.arrayContaining([
        ['Unga', 20, 3200],
        ['Sukari', 10, 2750.5],
        ['Unga', 4, 3200],
      ]),
    );
    expect((await productOf(t, owner, unga.id)).stock).toBe(5);

    const delivered = await patch(owner, d.id, { status: 'delivered' });
    expect(delivered.status, delivered.text).toBe(200);
    expect(delivered.body.data).toMatchObject({
      status: 'delivered',
      balance: 104_305,
      stock_added_at: new Date(t.clock.now()).toISOString(),
    });
    expect((await productOf(t, owner, unga.id)).stock).toBe(29);
    expect((await productOf(t, owner, sukari.id)).stock).toBe(10);

    const again = await patch(owner, d.id, { status: 'delivered', notes: 'checked twice' });
    expect(again.status, again.text).toBe(200);
    expect((await productOf(t, owner, unga.id)).stock).toBe(29);
    expect((await productOf(t, owner, sukari.id)).stock).toBe(10);
    expect(await adjustments(unga.id)).toEqual([
      { qty_change: 5, qty_after: 5, reason: 'initial_stock' },
      { qty_change: 24, qty_after: 29, reason: 'delivery' },
    ]);
    const log = await t.db.db
      .selectFrom('change_log')
      .select('entity_id')
      .where('org_id', '=', owner.orgId)
      .where('entity', '=', 'stock')
      .execute();
    expect(log.filter((r) => r.entity_id === sukari.id)).toHaveLength(1);
    const lines = await t.request('PATCH', `/suppliers/deliveries/${d.id}`, {
      token: owner.token,
      body: { lines: [{ product_id: unga.id, qty: 1, unit_cost: 1 }] },
    });
    expect(lines.status).toBe(409);
  });

  it('two concurrent PATCHes marking it delivered add the stock once', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const soda = await newProduct(t, owner, { name: 'Soda', stock: 3 });
    for (let round = 0; round < 3; round++) {
      const d = await newDelivery(t, owner, supplier.id, { lines: [{ product_id: soda.id, qty: 12, unit_cost: 600 }] });
      const results = await Promise.all([
        patch(owner, d.id, { status: 'delivered' }),
        patch(owner, d.id, { status: 'delivered' }),
        patch(owner, d.id, { status: 'delivered' }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect((await productOf(t, owner, soda.id)).stock).toBe(3 + 12 * (round + 1));
    }
    expect((await adjustments(soda.id)).filter((a) => a.reason === 'delivery')).toHaveLength(3);
  });

  it('created as delivered adds stock at once, and updates cost_price only where asked', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const oil = await newProduct(t, owner, { name: 'Mafuta', cost_price: 5000, stock: 2 });
    const rice = await newProduct(t, owner, { name: 'Mchele', cost_price: 2000, stock: 0 });
    const d = await newDelivery(t, owner, supplier.id, {
      status: 'delivered',
      total_value: 100_000,
      items_count: 2,
      lines: [
        { product_id: oil.id, qty: 6, unit_cost: 5400.25, update_cost: true },
        { product_id: rice.id, qty: 20, unit_cost: 2100 },
      ],
    });
    expect(d).toMatchObject({ status: 'delivered', total_value: 100_000, balance: 100_000 });
    expect(await productOf(t, owner, oil.id)).toMatchObject({ stock: 8, cost_price: 5400.25 });
    expect(await productOf(t, owner, rice.id)).toMatchObject({ stock: 20, cost_price: 2000 });
    const prices = await t.db.db
      .selectFrom('product_prices')
      .select('cost_price')
      .where('product_id', '=', oil.id)
      .orderBy('effective_from')
      .orderBy('id')
      .execute();
    expect(prices.map((p) => Number(p.cost_price))).toEqual([500_000, 540_025]);
  });

  it('follows the status set: returned takes the stock back out, cancelled and returned are final', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const p = await newProduct(t, owner, { name: 'Sabuni', stock: 1 });
    const d = await newDelivery(t, owner, supplier.id, { status: 'delivered', lines: [{ product_id: p.id, qty: 10, unit_cost: 800 }] });
    expect((await productOf(t, owner, p.id)).stock).toBe(11);
    const back = await patch(owner, d.id, { status: 'expected' });
    expect(back.status).toBe(409);
    expect(back.body.errors[0].code).toBe('INVALID_STATE');
    const returned = await patch(owner, d.id, { status: 'returned' });
    expect(returned.status, returned.text).toBe(200);
    expect(returned.body.data).toMatchObject({ status: 'returned', balance: 0, stock_added_at: null });
    expect((await productOf(t, owner, p.id)).stock).toBe(1);
    expect((await patch(owner, d.id, { status: 'delivered' })).status).toBe(409);

    const cancelled = await newDelivery(t, owner, supplier.id, { lines: [{ product_id: p.id, qty: 5, unit_cost: 800 }] });
    expect((await patch(owner, cancelled.id, { status: 'cancelled' })).status).toBe(200);
    expect((await patch(owner, cancelled.id, { status: 'delivered' })).status).toBe(409);
    expect((await productOf(t, owner, p.id)).stock).toBe(1);

    const partial = await newDelivery(t, owner, supplier.id, {
      status: 'partial',
      total_value: 4000,
      lines: [{ product_id: p.id, qty: 5, unit_cost: 800 }],
    });
    expect(partial).toMatchObject({ balance: 4000 });
    expect((await productOf(t, owner, p.id)).stock).toBe(1);
    expect((await patch(owner, partial.id, { status: 'delivered' })).body.data.status).toBe('delivered');
    expect((await productOf(t, owner, p.id)).stock).toBe(6);
    const badStatus = await patch(owner, partial.id, { status: 'lost' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors[0].field).toBe('status');
  });

  it('refuses bad lines naming the field, and edits lines until the stock is added', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const theirs = await newProduct(t, other, { name: 'Theirs' });
    const mine = await newProduct(t, owner, { name: 'Mine', stock: 0 });
    const service = await newProduct(t, owner, { name: 'Delivery fee', is_service: true });
    const post = (body: Record<string, unknown>) => t.request('POST', `/suppliers/${supplier.id}/deliveries`, { token: owner.token, body });
    const foreign = await post({
      lines: [
        { product_id: mine.id, qty: 1, unit_cost: 1 },
        { product_id: theirs.id, qty: 1, unit_cost: 1 },
      ],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].field).toBe('lines.1.product_id');
    const svc = await post({ lines: [{ product_id: service.id, qty: 1, unit_cost: 1 }] });
    expect(svc.status).toBe(400);
    expect(svc.body.errors[0].field).toBe('lines.0.product_id');
    const zero = await post({ lines: [{ product_id: mine.id, qty: 0, unit_cost: 1 }] });
    expect(zero.body.errors[0].field).toBe('lines.0.qty');
    const cost = await post({ lines: [{ product_id: mine.id, qty: 1, unit_cost: 1.001 }] });
    expect(cost.body.errors[0].field).toBe('lines.0.unit_cost');
    const noSupplier = await t.request('POST', '/suppliers/deliveries', { token: owner.token, body: { total_value: 100 } });
    expect(noSupplier.status).toBe(400);
    expect(noSupplier.body.errors[0].field).toBe('supplier_id');
    const date = await post({ delivery_date: 'yesterday' });
    expect(date.body.errors[0].field).toBe('delivery_date');
    expect(await t.db.db.selectFrom('deliveries').select('id').where('org_id', '=', owner.orgId).execute()).toEqual([]);

    const d = await newDelivery(t, owner, supplier.id, { lines: [{ product_id: mine.id, qty: 3, unit_cost: 100 }] });
    const edited = await patch(owner, d.id, { lines: [{ product_id: mine.id, qty: 7, unit_cost: 150 }] });
    expect(edited.body.data).toMatchObject({ items_count: 7, total_value: 1050 });
    await patch(owner, d.id, { status: 'delivered' });
    expect((await productOf(t, owner, mine.id)).stock).toBe(7);
  });

  it('items_count (issue 51): pieces, a carton its pieces, one per measured line; on creation and when lines change', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const soda = await newProduct(t, owner, { name: 'Soda', stock: 0, packs: [{ name: 'Carton', units: 24 }] });
    const sugar = await newProduct(t, owner, { name: 'Sukari', unit: 'kg', stock: 0 });
    const carton = (soda as unknown as { packs: Array<{ id: string }> }).packs[0]!.id;
    const d = await newDelivery(t, owner, supplier.id, {
      lines: [
        { product_id: soda.id, pack_id: carton, qty: 2, unit_cost: 16800 },
        { product_id: soda.id, qty: 3, unit_cost: 700 },
        { product_id: sugar.id, qty: 25.5, unit_cost: 2800 },
        { product_id: sugar.id, qty: 0.75, unit_cost: 2800 },
      ],
    });
    // 2 cartons of 24 + 3 bottles + two sacks' lines: 48 + 3 + 1 + 1.
    expect(d).toMatchObject({ items_count: 53, total_value: 33_600 + 2_100 + 71_400 + 2_100 });
    const edited = await patch(owner, d.id, {
      lines: [
        { product_id: soda.id, pack_id: carton, qty: 1, unit_cost: 16800 },
        { product_id: sugar.id, qty: 50, unit_cost: 2800 },
      ],
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.data).toMatchObject({ items_count: 25, total_value: 16_800 + 140_000 });
    await patch(owner, d.id, { status: 'delivered' });
    expect([(await productOf(t, owner, soda.id)).stock, (await productOf(t, owner, sugar.id)).stock]).toEqual([24, 50]);
  });

  it('a product deleted while its delivery is expected: the product goes, marking delivered then names the line', async () => {
    const owner = await registerOwner(t);
    const supplier = await newSupplier(t, owner);
    const gone = await newProduct(t, owner, { name: 'Discontinued', stock: 0 });
    const d = await newDelivery(t, owner, supplier.id, { lines: [{ product_id: gone.id, qty: 2, unit_cost: 100 }] });
    expect((await t.request('DELETE', `/inventory/products/${gone.id}`, { token: owner.token })).status).toBe(204);
    expect((await t.request('GET', `/suppliers/deliveries/${d.id}`, { token: owner.token })).body.data.lines[0].product_name).toBe(
      '(deleted product)',
    );
    const res = await patch(owner, d.id, { status: 'delivered' });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].field).toBe('lines.0.product_id');
    expect((await t.request('GET', `/suppliers/deliveries/${d.id}`, { token: owner.token })).body.data).toMatchObject({
      status: 'expected',
      stock_added_at: null,
    });
  });

  it('lists with unpaid and supplier filters, per supplier, and deletes only what never reached stock', async () => {
    const owner = await registerOwner(t);
    const a = await newSupplier(t, owner, { name: 'A' });
    const b = await newSupplier(t, owner, { name: 'B' });
    const p = await newProduct(t, owner, { stock: 0 });
    const owed = await newDelivery(t, owner, a.id, { status: 'delivered', total_value: 5000, delivery_date: '2026-01-05T09:00:00Z' });
    const paid = await newDelivery(t, owner, a.id, {
      status: 'delivered',
      total_value: 7000,
      is_paid: true,
      delivery_date: '2026-01-06T09:00:00Z',
    });
    const expected = await newDelivery(t, owner, b.id, {
      total_value: 9000,
      delivery_date: '2026-01-07T09:00:00Z',
      lines: [{ product_id: p.id, qty: 1, unit_cost: 9000 }],
    });
    const ids = async (query: string) => {
      const res = await t.request('GET', `/suppliers/deliveries${query}`, { token: owner.token });
      expect(res.status, res.text).toBe(200);
      return PagedEnvelope(Delivery)
        .parse(res.body)
        .data.map((d) => d.id);
    };
    expect(await ids('')).toEqual([expected.id, paid.id, owed.id]);
    expect(await ids('?unpaid=true')).toEqual([owed.id]);
    expect(await ids('?unpaid=false')).toEqual([paid.id]);
    expect(await ids(`?supplier=${a.id}`)).toEqual([paid.id, owed.id]);
    expect(await ids(`?supplier=${b.id}&unpaid=true`)).toEqual([]);
    const perSupplier = await t.request('GET', `/suppliers/${b.id}/deliveries`, { token: owner.token });
    expect(perSupplier.body.data.map((d: Delivery) => d.id)).toEqual([expected.id]);
    expect(perSupplier.body.data[0].lines).toHaveLength(1);
    expect(perSupplier.body.meta.total).toBe(1);
    expect((await t.request('GET', '/suppliers/deliveries?unpaid=maybe', { token: owner.token })).body.errors[0].field).toBe('unpaid');

    const del = await t.request('DELETE', `/suppliers/deliveries/${owed.id}`, { token: owner.token });
    expect(del.status).toBe(409);
    const ok = await t.request('DELETE', `/suppliers/deliveries/${expected.id}`, { token: owner.token });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.success).toBe(true);
    expect((await t.request('GET', `/suppliers/deliveries/${expected.id}`, { token: owner.token })).status).toBe(404);
    expect(await ids('')).toEqual([paid.id, owed.id]);
  });

  // Another organisation's delivery or supplier in the path: test/api/access-rules.test.ts.
  it("answers 404 for another organisation's supplier in the body, and lists none of its deliveries", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const theirSupplier = await newSupplier(t, other);
    await newDelivery(t, other, theirSupplier.id, { total_value: 100 });
    const post = await t.request('POST', '/suppliers/deliveries', {
      token: owner.token,
      body: { supplier_id: theirSupplier.id, total_value: 5 },
    });
    expect(post.status).toBe(404);
    expect((await t.request('GET', '/suppliers/deliveries', { token: owner.token })).body.data).toEqual([]);
  });
});

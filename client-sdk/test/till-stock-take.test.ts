/**
 * Issue 52: counting a stock-take on the till. The owner opens a count over REST; two tills fetch
 * it, go offline and count (one scans soda three times and types 2.375 kg of rice, the other types
 * 7 sodas) while the server sells; back online they push their counts (`stock_take.count`), the
 * review sums them per product with the server's expected rule, and a push sent again after its
 * answer was lost adds nothing twice.
 */
import { PROTOCOL_HEADER, StockTake } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { type Shop, seedShop, signIn, tillServer } from './harness.js';

describe('till: counting a stock-take offline', () => {
  const server = tillServer();

  const call = async (shop: Shop, method: string, path: string, body?: unknown) => {
    const res = await server.h.t.request(method, path, { token: shop.owner.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  const review = async (shop: Shop, id: string) => StockTake.parse(await call(shop, 'GET', `/inventory/stock-takes/${id}`));
  const line = (take: StockTake, productId: string) => {
    const l = take.lines.find((x) => x.product_id === productId)!;
    return { expected: l.expected, counted: l.counted, variance: l.variance, variance_value: l.variance_value };
  };

  async function counting(o: { fetch?: (input: string, init?: RequestInit) => Promise<Response> } = {}) {
    const { h } = server;
    h.net.offline = false;
    const shop = await seedShop(h);
    const rice = (await call(shop, 'POST', '/inventory/products', {
      name: 'Mchele',
      unit: 'kg',
      sku: 'MCHELE-KG',
      selling_price: 3600,
      cost_price: 2900,
      stock: 3,
    })) as { id: string };
    const take = (await call(shop, 'POST', '/inventory/stock-takes', {
      scope: 'products',
      product_ids: [shop.soda.id, rice.id],
    })) as StockTake;
    const t1 = await server.till({ deviceName: 'Counter 1', ...o });
    const t2 = await server.till({ deviceName: 'Counter 2' });
    for (const t of [t1, t2]) {
      await signIn(t, shop);
      await t.syncNow();
      expect((await t.openStockTakes()).map((s) => [s.id, s.product_ids.length])).toEqual([[take.id, 2]]);
    }
    return { h, shop, rice, take, t1, t2 };
  }

  it('two tills count offline while the server sells; synced, the review sums them: 10 sodas and 2.375 kg', async () => {
    const { h, shop, rice, take, t1, t2 } = await counting();
    h.net.offline = true;
    // Offline, the till still knows the open count.
    expect((await t1.openStockTakes()).map((s) => s.id)).toEqual([take.id]);
    for (let i = 1; i <= 3; i++) expect((await t1.count(take.id, '6161100000017')).till_total).toBe(i);
    expect(await t2.count(take.id, shop.soda.id, 7)).toMatchObject({ qty: 7, till_total: 7, name: 'Soda 500ml' });
    expect(await t1.count(take.id, 'MCHELE-KG', 2.375)).toMatchObject({ qty: 2.375, unit: 'kg', till_total: 2.375 });
    // Each till's running counts per product, offline (what a counting screen shows, after a reload too).
    expect(await t1.stockTakeTotals(take.id)).toEqual({ [shop.soda.id]: 3, [rice.id]: 2.375 });
    expect(await t2.stockTakeTotals(take.id)).toEqual({ [shop.soda.id]: 7 });
    // A third till (the server) sells meanwhile: 2 sodas and 0.5 kg of rice, before any count arrives.
    await call(shop, 'POST', '/pos/sale', {
      lines: [
        { product_id: shop.soda.id, qty: 2 },
        { product_id: rice.id, qty: 0.5 },
      ],
      payment_method: 'Cash',
    });
    h.net.offline = false;
    expect((await t1.syncNow()).pushed).toBe(4);
    expect((await t2.syncNow()).pushed).toBe(1);
    expect([await t1.rejected(), await t2.rejected()]).toEqual([[], []]);
    // Sent counts still count on the till that made them.
    expect(await t1.stockTakeTotals(take.id)).toEqual({ [shop.soda.id]: 3, [rice.id]: 2.375 });
    // After the counts arrived, a sale is not taken as missing: expected stays the level then.
    await call(shop, 'POST', '/pos/sale', { lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });

    const r = await review(shop, take.id);
    // Soda: 40 − 2 sold = 38 expected, 3 + 7 counted, −28 × 700 = −19,600.
    expect(line(r, shop.soda.id)).toEqual({ expected: 38, counted: 10, variance: -28, variance_value: -19600 });
    // Rice: 3 − 0.5 = 2.5 kg expected, 2.375 counted, −0.125 kg × 2,900 = 362.5 → −363 (half up, once).
    expect(line(r, rice.id)).toEqual({ expected: 2.5, counted: 2.375, variance: -0.125, variance_value: -363 });
    expect(r.totals).toMatchObject({ products: 2, counted: 2, over: 0, short: 2, variance_value: -19963 });
  });

  it('a push whose answer was lost is sent again: the counts are not added twice', async () => {
    const { h, take, t1, shop } = await counting();
    await t1.count(take.id, shop.soda.id, 5);
    h.net.loseReplyTo = '/sync/push';
    await expect(t1.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    expect(line(await review(shop, take.id), shop.soda.id).counted).toBe(5);
    expect((await t1.syncNow()).pushed).toBe(1);
    await t1.count(take.id, '6161100000017');
    await t1.syncNow();
    expect(line(await review(shop, take.id), shop.soda.id)).toMatchObject({ expected: 40, counted: 6, variance: -34 });
  });

  it('refuses offline what the server would: a product outside the count, a fraction of a piece, an unknown count', async () => {
    const { h, shop, take, t1 } = await counting();
    h.net.offline = true;
    await expect(t1.count(take.id, shop.unga.id)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', field: 'product' });
    await expect(t1.count(take.id, shop.soda.id, 1.5)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', field: 'qty' });
    await expect(t1.count(take.id, shop.soda.id, -1)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', field: 'qty' });
    await expect(t1.count(shop.soda.id, shop.soda.id)).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'stock_take_id' });
    await expect(t1.count(take.id, '0000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'product' });
    // An empty shelf is a count.
    expect(await t1.count(take.id, shop.soda.id, 0)).toMatchObject({ qty: 0, till_total: 0 });
    // Refused counts are not in the till's totals: the empty shelf is.
    expect(await t1.stockTakeTotals(take.id)).toEqual({ [shop.soda.id]: 0 });
    h.net.offline = false;
    expect((await t1.syncNow()).pushed).toBe(1);
    expect(line(await review(shop, take.id), shop.soda.id)).toMatchObject({ counted: 0, variance: -40 });
  });

  it('refuses to count while its server speaks sync protocol 2 (no stock_take.count), nothing queued', async () => {
    // A server of issue 51 answers version 2 in its header.
    const fetch = async (input: string, init?: RequestInit) => {
      const res = await server.h.net.fetch(input, init);
      const headers = new Headers(res.headers);
      if (headers.has(PROTOCOL_HEADER)) headers.set(PROTOCOL_HEADER, '2');
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    };
    const { shop, take, t1 } = await counting({ fetch });
    expect(t1.status().serverProtocol).toBe(2);
    await expect(t1.count(take.id, shop.soda.id)).rejects.toMatchObject({ code: 'UPDATE_SERVER' });
    expect((await t1.syncNow()).pushed).toBe(0);
  });
});

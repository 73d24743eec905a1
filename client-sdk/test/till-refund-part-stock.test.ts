/**
 * Issue 51: the goods of a part refunded on the till. A batch-tracked product of a shop (not a
 * pharmacy: its refunds go back on the shelf): the units go back to the lots they came from,
 * first-taken first (the shared `refundLots`), on the till offline as on the server after the
 * push. A line sold by the pack: part of the carton comes back, by the bottle.
 */
import { describe, expect, it } from 'vitest';
import { batchRows, receiveLots } from '../../test/setup/pharmacy-factories.js';
import type { Till } from '@duka/client-sdk';
import { seedShop, signIn, tillServer } from './harness.js';

describe('till: the goods of a part refunded', () => {
  const server = tillServer();

  it('5 sold as 2 of lot B + 3 of lot A: 3 back are 2 to B and 1 to A, the last 2 to A, on the till and the server', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const owner = shop.owner;
    const res = await h.t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Maziwa Lala', selling_price: 1500, track_batches: true },
    });
    expect(res.status, res.text).toBe(200);
    const milk = res.body.data as { id: string };
    await receiveLots(h.t, owner, [
      { product_id: milk.id, lot_number: 'A-2703', expiry_date: '2027-03-31', qty: 10 },
      { product_id: milk.id, lot_number: 'B-2701', expiry_date: '2027-01-31', qty: 2 },
    ]);
    const t = await server.till();
    await signIn(t, shop);
    await t.syncNow();
    const tillLots = async (till: Till) => (await till.batches({ product_id: milk.id })).map((b) => [b.lot_number, b.qty_on_hand]).sort();
    const serverLots = async () => (await batchRows(h.t, owner.storeId, milk.id)).map((b) => [b.lot_number, b.qty_on_hand]).sort();

    h.net.offline = true;
    const sale = await t.sell({ lines: [{ product_id: milk.id, qty: 5 }], payment_method: 'Cash' });
    expect(sale.lines[0]!.batches.map((b) => [b.lot_number, b.qty])).toEqual([
      ['B-2701', 2],
      ['A-2703', 3],
    ]);
    await t.refund(sale.id, 'sour', { lines: [{ product_id: milk.id, qty: 3 }] });
    expect(await tillLots(t)).toEqual([
      ['A-2703', 8],
      ['B-2701', 2],
    ]);
    expect(await t.stock(milk.id)).toBe(10);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    expect(await serverLots()).toEqual(await tillLots(t));

    h.net.offline = true;
    await t.refund(sale.id, 'sour');
    expect(await tillLots(t)).toEqual([
      ['A-2703', 10],
      ['B-2701', 2],
    ]);
    expect(await t.stock(milk.id)).toBe(12);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    expect(await serverLots()).toEqual(await tillLots(t));
    expect((await t.transaction(sale.id))!.status).toBe('refunded');
  });

  it('1.25 l sold as 0.5 l of lot B + 0.75 l of lot A: 0.6 l back is 0.5 to B and 0.1 to A, to the millilitre on the till and the server', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const owner = shop.owner;
    const res = await h.t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Mafuta ya Taa', unit: 'l', selling_price: 3200, track_batches: true },
    });
    expect(res.status, res.text).toBe(200);
    const paraffin = res.body.data as { id: string };
    await receiveLots(h.t, owner, [
      { product_id: paraffin.id, lot_number: 'A-2703', expiry_date: '2027-03-31', qty: 2 },
      { product_id: paraffin.id, lot_number: 'B-2701', expiry_date: '2027-01-31', qty: 0.5 },
    ]);
    const t = await server.till();
    await signIn(t, shop);
    await t.syncNow();
    const tillLots = async () => (await t.batches({ product_id: paraffin.id })).map((b) => [b.lot_number, b.qty_on_hand]).sort();
    const serverLots = async () => (await batchRows(h.t, owner.storeId, paraffin.id)).map((b) => [b.lot_number, b.qty_on_hand]).sort();

    h.net.offline = true;
    const sale = await t.sell({ lines: [{ product_id: paraffin.id, qty: 1.25 }], payment_method: 'Cash' });
    expect(sale.lines[0]!.batches.map((b) => [b.lot_number, b.qty])).toEqual([
      ['B-2701', 0.5],
      ['A-2703', 0.75],
    ]);
    await t.refund(sale.id, 'leaking can', { lines: [{ product_id: paraffin.id, qty: 0.6 }] });
    expect(await tillLots()).toEqual([
      ['A-2703', 1.35],
      ['B-2701', 0.5],
    ]);
    expect(await t.stock(paraffin.id)).toBe(1.85);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    // The server's rows hold millilitres (counts), the till answers litres.
    expect(await serverLots()).toEqual([
      ['A-2703', 1350],
      ['B-2701', 500],
    ]);
  });

  it('3 bottles of a crate of 24 (55,000) come back: 6,875 and 3 bottles on the shelf, on the till and the server', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const res = await h.t.request('POST', '/inventory/products', {
      token: shop.owner.token,
      body: { name: 'Safari Lager', selling_price: 2500, stock: 50, packs: [{ name: 'Crate of 24', units: 24, selling_price: 55000 }] },
    });
    expect(res.status, res.text).toBe(200);
    const beer = res.body.data as { id: string; packs: Array<{ id: string }> };
    const crate = beer.packs[0]!.id;
    const t = await server.till();
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    const sale = await t.sell({ lines: [{ product_id: beer.id, pack_id: crate, qty: 1 }], payment_method: 'Cash' });
    // The sale has no loose line of the beer: a refund must name the crate's line.
    await expect(t.refund(sale.id, 'broken', { lines: [{ product_id: beer.id, qty: 3 }] })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'lines.0.product_id this sale has no line of this product sold loose',
    });
    const part = await t.refund(sale.id, 'broken', { lines: [{ product_id: beer.id, pack_id: crate, qty: 3 }] });
    expect(part).toMatchObject({ status: 'paid', refunded_total: 6875 });
    expect(await t.stock(beer.id)).toBe(29);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const booked = (await h.t.request('GET', `/pos/transactions/${sale.id}`, { token: shop.owner.token })).body.data;
    expect([booked.refunded_total, booked.lines[0].refunded_qty]).toEqual([6875, 3]);
    const onServer = (await h.t.request('GET', `/inventory/products/${beer.id}`, { token: shop.owner.token })).body.data.stock;
    expect([onServer, await t.stock(beer.id)]).toEqual([29, 29]);
  });
});

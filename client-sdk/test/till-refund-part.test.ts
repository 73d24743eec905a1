/**
 * Issue 51, "a weighed line partly refunded", through the till: 0.25 kg of a 1.25 kg line of sugar
 * refunded offline by the server's shared rules (813 of 4,063 back, 250 g on the shelf), pushed and
 * booked alike by the server to the gram; the rest refunded with the two-argument form; a push
 * replayed refunds nothing twice; bad lines refused offline with nothing written.
 */
import { describe, expect, it } from 'vitest';
import { TillError } from '@duka/client-sdk';
import { type Harness, seedShop, serverView, signIn, tillServer } from './harness.js';

describe('till: a part of a sale refunded offline', () => {
  const server = tillServer();

  async function soldSugar(h: Harness, fetch?: typeof h.net.fetch) {
    const shop = await seedShop(h);
    const res = await h.t.request('POST', '/inventory/products', {
      token: shop.owner.token,
      body: { name: 'Sukari', unit: 'kg', selling_price: 3250, stock: 10 },
    });
    expect(res.status, res.text).toBe(200);
    const sugar = res.body.data as { id: string };
    const t = await server.till(fetch ? { fetch } : {});
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    // 1.25 kg at 3,250/kg = 4,062.50, rounded half up to 4,063; two sodas 2,000.
    const sale = await t.sell({
      lines: [
        { product_id: sugar.id, qty: 1.25 },
        { product_id: shop.soda.id, qty: 2 },
      ],
      payment_method: 'Cash',
    });
    expect(sale.total).toBe(6063);
    return { shop, sugar, t, sale, view: await serverView(h, shop) };
  }

  it('refunds 0.25 kg of 1.25 kg offline (813 back, +250 g), the server books the same; the rest is 3,250 and leaves it refunded', async () => {
    const { h } = server;
    const { shop, sugar, t, sale, view } = await soldSugar(h);
    const part = await t.refund(sale.id, 'spilt bag', { lines: [{ product_id: sugar.id, qty: 0.25 }] });
    expect(part).toMatchObject({ status: 'paid', refunded_total: 813 });
    expect(part.lines.map((l) => l.refunded_qty)).toEqual([0.25, 0]);
    // 10 − 1.25 + 0.25 kg, counted in grams: exactly 9.
    expect(await t.stock(sugar.id)).toBe(9);
    expect(t.status().pending).toBe(2);

    h.net.offline = false;
    expect(await t.syncNow()).toMatchObject({ pushed: 2 });
    expect(await t.rejected()).toEqual([]);
    const booked = (await h.t.request('GET', `/pos/transactions/${sale.id}`, { token: view.token })).body.data;
    expect(booked).toMatchObject({ status: 'paid', total: 6063, refunded_total: 813 });
    expect(booked.lines.map((l: { refunded_qty: number }) => l.refunded_qty)).toEqual([0.25, 0]);
    expect([await view.stock(sugar.id), await t.stock(sugar.id)]).toEqual([9, 9]);

    // The rest, offline, by the two-argument refund: 1 kg of sugar (4,063 − 813) and the sodas.
    h.net.offline = true;
    const rest = await t.refund(sale.id, 'customer returned all');
    expect(rest).toMatchObject({ status: 'refunded', refunded_total: 6063, refund_reason: 'customer returned all' });
    expect(rest.lines.map((l) => l.refunded_qty)).toEqual([1.25, 2]);
    expect([await t.stock(sugar.id), await t.stock(shop.soda.id)]).toEqual([10, 40]);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const after = (await h.t.request('GET', `/pos/transactions/${sale.id}`, { token: view.token })).body.data;
    expect(after).toMatchObject({ status: 'refunded', refunded_total: 6063 });
    expect(after.lines.map((l: { refunded_qty: number }) => l.refunded_qty)).toEqual([1.25, 2]);
    expect([await view.stock(sugar.id), await view.stock(shop.soda.id)]).toEqual([10, 40]);
    // 3,250 of the sugar came back with the rest: the line's 4,063 exactly, split 813 + 3,250.
    expect(after.refunded_total - booked.refunded_total - 2000).toBe(3250);
  });

  it('a push whose answer is lost, sent again, refunds once', async () => {
    const { h } = server;
    const { sugar, t, sale, view } = await soldSugar(h);
    await t.refund(sale.id, 'spilt bag', { lines: [{ product_id: sugar.id, qty: 0.25 }] });
    h.net.offline = false;
    h.net.loseReplyTo = '/sync/push';
    await t.syncNow().catch(() => undefined);
    expect(t.status().pending).toBe(2);
    await t.syncNow();
    expect(t.status().pending).toBe(0);
    expect(await t.rejected()).toEqual([]);
    const booked = (await h.t.request('GET', `/pos/transactions/${sale.id}`, { token: view.token })).body.data;
    expect(booked.refunded_total).toBe(813);
    expect([await view.stock(sugar.id), await t.stock(sugar.id)]).toEqual([9, 9]);
    expect((await t.transaction(sale.id))!.refunded_total).toBe(813);
  });

  it('refuses half a soda, more than is left and a void of a sale refunded in part, offline, writing nothing', async () => {
    const { h } = server;
    const { shop, sugar, t, sale } = await soldSugar(h);
    const refused = async (lines: Array<{ product_id: string; qty: number }>) => {
      const e = await t.refund(sale.id, 'oops', { lines }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TillError);
      return e;
    };
    expect(await refused([{ product_id: shop.soda.id, qty: 0.5 }])).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'lines.0.qty',
      message: 'lines.0.qty a product sold by the piece takes whole numbers',
    });
    expect(await refused([{ product_id: shop.rice.id, qty: 1 }])).toMatchObject({ code: 'VALIDATION_ERROR', field: 'lines.0.product_id' });
    await t.refund(sale.id, 'spilt bag', { lines: [{ product_id: sugar.id, qty: 0.25 }] });
    const before = { sale: await t.transaction(sale.id), stock: await t.stock(sugar.id), pending: t.status().pending };
    expect(await refused([{ product_id: sugar.id, qty: 1.5 }])).toMatchObject({
      code: 'INVALID_STATE',
      field: 'lines.0.qty',
      message: 'lines.0.qty only 1 kg of Sukari is left to refund (1.25 kg sold)',
    });
    await expect(t.void(sale.id, 'changed mind')).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: 'part of this sale has been refunded; refund the rest instead of voiding it',
    });
    expect({ sale: await t.transaction(sale.id), stock: await t.stock(sugar.id), pending: t.status().pending }).toEqual(before);
    h.net.offline = false;
  });

  it('a part the server refuses (the sale was refunded whole meanwhile) is taken back on the till: stock, receipt, shift', async () => {
    const { h } = server;
    // Pulls fail while `cut`: what the push's refusal undid shows before the server's copy comes in.
    const net = { cut: false };
    const fetch = (input: string, init?: RequestInit) =>
      net.cut && new URL(input).pathname.endsWith('/sync/pull') ? Promise.reject(new TypeError('fetch failed')) : h.net.fetch(input, init);
    const { sugar, t, sale, view } = await soldSugar(h, fetch);
    h.net.offline = false;
    await t.syncNow();
    const whole = await h.t.request('POST', `/pos/transactions/${sale.id}/refund`, { token: view.token, body: { reason: 'all back' } });
    expect(whole.status, whole.text).toBe(200);
    h.net.offline = true;
    await t.openShift({ opening_float: 0 });
    await t.refund(sale.id, 'spilt bag', { lines: [{ product_id: sugar.id, qty: 0.25 }] });
    expect(await t.stock(sugar.id)).toBe(9);
    h.net.offline = false;
    net.cut = true;
    await t.syncNow().catch(() => undefined);
    expect((await t.rejected()).map((m) => m.type)).toEqual(['sale.refund']);
    expect(await t.stock(sugar.id)).toBe(8.75);
    const mine = (await t.transaction(sale.id))!;
    expect([mine.status, mine.refunded_total ?? 0, mine.lines[0]!.refunded_qty ?? 0]).toEqual(['paid', 0, 0]);
    expect((await t.shiftReport())!.totals).toMatchObject({ refunds: 0 });
    net.cut = false;
    await t.syncNow();
    expect([await t.stock(sugar.id), await view.stock(sugar.id)]).toEqual([10, 10]);
  });
});

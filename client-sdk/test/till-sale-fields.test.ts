import { TillError } from '@duka/client-sdk';
import { describe, expect, it } from 'vitest';
import { nextEvent, seedShop, serverView, signIn, tillServer } from './harness.js';

describe('till: tender and change, how a sale was rung up, a wrong clock', () => {
  const server = tillServer();
  const till = server.till;

  it('prints the tender and change on the receipt, refuses a short tender before queueing anything, and the server keeps both', async () => {
    const h = server.h;
    const shop = await seedShop(h);
    const t = await till();
    await signIn(t, shop);
    await t.syncNow();

    const receipt = await t.sell({
      lines: [{ product_id: shop.rice.id, qty: 3 }],
      payment_method: 'Cash',
      discount_pct: 10,
      cash_tendered: 10000,
    });
    // 9,600 less 10 % = 8,640; change from 10,000 = 1,360.
    expect(receipt).toMatchObject({ total: 8640, cash_tendered: 10000, change_given: 1360, received_at: null });

    const short = t.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash', cash_tendered: 1999.99 });
    await expect(short).rejects.toBeInstanceOf(TillError);
    await expect(short).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'cash_tendered',
      message: "cash_tendered TZS 1,999.99 is less than the sale's total of TZS 2,000",
    });
    // Issue 51: a pack the product does not have is refused as the server refuses it, never sold as a bottle.
    await expect(
      t.sell({ lines: [{ product_id: shop.soda.id, qty: 1, pack_id: shop.soda.id }], payment_method: 'Cash' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'lines.0.pack_id', message: 'lines.0.pack_id is not a pack of this product' });
    await expect(
      t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash', cash_tendered: 1e12 }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'cash_tendered',
      message: expect.stringContaining('more than TZS 100,000'),
    });
    await expect(
      t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'M-Pesa', cash_tendered: 1000 }),
    ).rejects.toMatchObject({
      field: 'cash_tendered',
    });
    expect(t.status().pending).toBe(1);
    expect(await t.stock(shop.soda.id)).toBe(40);

    await t.syncNow();
    const { items } = await (await serverView(h, shop)).transactions();
    expect(items.map((s) => [s.total, s.cash_tendered, s.change_given])).toEqual([[8640, 10000, 1360]]);
    expect(await t.transaction(receipt.id)).toMatchObject({ cash_tendered: 10000, change_given: 1360, sync_state: 'synced' });
  });

  it('records a sale rung up while the server answered as online, one after it went away as offline', async () => {
    const h = server.h;
    const shop = await seedShop(h);
    const t = await till();
    await signIn(t, shop);
    await t.syncNow();
    const online = await t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    h.net.offline = true;
    await expect(t.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    const offline = await t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    expect([online.source, offline.source]).toEqual(['online', 'offline']);
    h.net.offline = false;
    await t.syncNow();
    const { items } = await (await serverView(h, shop)).transactions();
    expect(Object.fromEntries(items.map((s) => [s.id, s.source]))).toEqual({ [online.id]: 'online', [offline.id]: 'offline' });
  });

  it('records a sale rung up after the server went away, before any request failed, as offline once its own push finds no server', async () => {
    const h = server.h;
    const shop = await seedShop(h);
    // Syncing on its own, as a till at a counter does: each sale is pushed as it is rung up.
    const t = await till({ autoSync: true, realtime: false, syncIntervalMs: 600_000 });
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    // Nothing has failed yet: the till still says online as the sale is rung up.
    expect(t.status().online).toBe(true);
    const sale = await t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    expect(sale.source).toBe('online');
    await expect.poll(() => t.status().online).toBe(false);
    expect((await t.transaction(sale.id))?.source).toBe('offline');
    t.stopSync();
    h.net.offline = false;
    await t.syncNow();
    const { items } = await (await serverView(h, shop)).transactions();
    expect(items.map((s) => [s.id, s.source])).toEqual([[sale.id, 'offline']]);
  });

  it('learns its clock is 2 hours fast at a sync and says so; the server books its sale at the receipt time and flags it', async () => {
    const h = server.h;
    const shop = await seedShop(h);
    const fast = 2 * 3_600_000;
    const t = await till({ now: () => h.t.clock.now() + fast });
    expect(t.status()).toMatchObject({ clockOffsetMs: null, clockWrong: false });
    await signIn(t, shop);
    const told = nextEvent(t, 'clock');
    await t.syncNow();
    expect((await told)[0]).toEqual({ offsetMs: -fast, wrong: true });
    expect(t.status()).toMatchObject({ clockOffsetMs: -fast, clockWrong: true });
    const sale = await t.sell({ lines: [{ product_id: shop.unga.id, qty: 1 }], payment_method: 'Cash' });
    await t.syncNow();

    const view = await serverView(h, shop);
    const { items } = await view.transactions();
    expect(items[0]).toMatchObject({
      id: sale.id,
      client_created_at: new Date(h.t.clock.now() + fast).toISOString(),
      created_at: new Date(h.t.clock.now()).toISOString(),
    });
    const conflicts = await h.t.request('GET', '/sync/conflicts', { token: view.token });
    expect(conflicts.body.data.map((c: { kind: string; transaction_id: string }) => [c.kind, c.transaction_id])).toEqual([
      ['clock', sale.id],
    ]);
  });
});

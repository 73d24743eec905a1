import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openTill, seedShop, serverView, signIn, tillServer } from './harness.js';

describe('till: awaiting a sync', () => {
  const server = tillServer();
  let h: Harness;
  beforeAll(() => void (h = server.h));
  const till = server.till;

  it('answers the bootstrap to a syncNow right after login, though login had started that sync already', async () => {
    const shop = await seedShop(h);
    const t = await till({ autoSync: true, realtime: false });
    await signIn(t, shop);
    const report = await t.syncNow();
    // The same report as a till that syncs only when told: the whole shop, bootstrapped (its
    // organisation, store and products, each product with its level: no stock rows).
    const manual = await till();
    await signIn(manual, shop);
    expect(await manual.syncNow()).toMatchObject({ bootstrapped: true, pushed: 0, pulled: 6, numbered: [] });
    expect(report).toMatchObject({ bootstrapped: true, pushed: 0, pulled: 6, numbered: [] });
    expect(t.status()).toMatchObject({ bootstrapped: true, pending: 0 });
  });

  it('whenSynced resolves at once on an empty queue, without asking the server', async () => {
    const shop = await seedShop(h);
    const t = await till();
    await signIn(t, shop);
    await t.syncNow();
    const from = h.net.calls.length;
    await t.whenSynced({ timeoutMs: 1000 });
    expect(h.net.calls.length).toBe(from);
  });

  it('whenSynced waits through an outage until the queue is sent, and can time out meanwhile', async () => {
    const shop = await seedShop(h);
    const t = await till({ autoSync: true, realtime: false, syncIntervalMs: 60_000, backoff: { baseMs: 5, maxMs: 20 }, random: () => 0 });
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    await t.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash' });
    await t.sell({ lines: [{ product_id: shop.unga.id, qty: 1 }], payment_method: 'Cash' });
    const started = Date.now();
    await expect(t.whenSynced({ timeoutMs: 150 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: 'the queue still holds 2 pending mutations after 150 ms',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    expect(t.status()).toMatchObject({ online: false, pending: 2 });

    const synced = t.whenSynced();
    h.net.offline = false;
    await synced;
    expect(t.status()).toMatchObject({ online: true, pending: 0 });
    const server = await serverView(h, shop);
    expect((await server.transactions()).total).toBe(2);
    expect(await server.stock(shop.soda.id)).toBe(38);
  });

  it('whenSynced gives up with the signal’s reason, and with CLOSED when the till closes', async () => {
    const shop = await seedShop(h);
    const t = await openTill(h);
    await signIn(t, shop);
    await t.syncNow();
    await t.sell({ lines: [{ product_id: shop.rice.id, qty: 1 }], payment_method: 'Cash' });
    const ac = new AbortController();
    const aborted = t.whenSynced({ signal: ac.signal });
    ac.abort(new Error('cashier went home'));
    await expect(aborted).rejects.toThrow('cashier went home');
    const closing = t.whenSynced();
    await t.close();
    await expect(closing).rejects.toMatchObject({ code: 'CLOSED' });
  });
});

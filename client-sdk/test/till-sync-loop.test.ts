import { beforeAll, describe, expect, it } from 'vitest';
import { backoffDelay } from '@duka/client-sdk';
import { type Harness, seedShop, signIn, tillServer, until } from './harness.js';

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, with up to half taken off at random, and honours Retry-After', () => {
    const o = { baseMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, o, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, o, () => 0))).toEqual([500, 1000, 2000]);
    expect(backoffDelay(10, o, () => 1)).toBe(60_000);
    expect(backoffDelay(10_000, o, () => 0.5)).toBe(45_000);
    expect(backoffDelay(1, o, () => 0, 30)).toBe(30_000);
  });
});

describe('till: the sync loop', () => {
  const server = tillServer({ realtime: true });
  let h: Harness;
  beforeAll(() => void (h = server.h));
  const till = server.till;
  const count = (from: number, call: string) => h.net.calls.slice(from).filter((c) => c.split('?')[0] === call).length;

  it('runs one sync at a time: calls made during a sync share the next one', async () => {
    const shop = await seedShop(h);
    const t = await till();
    await signIn(t, shop);
    await t.syncNow();
    await t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    const from = h.net.calls.length;
    const [a, b, c] = await Promise.all([t.syncNow(), t.syncNow(), t.syncNow()]);
    expect(a.pushed).toBe(1);
    expect(b).toBe(c);
    expect(b.pushed).toBe(0);
    expect(count(from, 'POST /sync/push')).toBe(1);
    expect(count(from, 'GET /sync/pull')).toBe(2);
  });

  it('retries a failing sync with backoff and never gives up; the queue goes up when the network returns', async () => {
    const shop = await seedShop(h);
    const t = await till({ autoSync: true, realtime: false, syncIntervalMs: 60_000, backoff: { baseMs: 2, maxMs: 8 }, random: () => 0 });
    await signIn(t, shop);
    await until(() => t.status().bootstrapped, 5000, 'first sync');
    h.net.offline = true;
    const from = h.net.calls.length;
    await t.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash' });
    await until(() => count(from, 'POST /sync/push') >= 15, 5000, '15 attempts');
    expect(t.status()).toMatchObject({ online: false, pending: 1, lastError: { code: 'NETWORK' } });
    expect(t.status().nextSyncAt).not.toBeNull();

    const synced = new Promise((resolve) => t.once('synced', resolve));
    h.net.offline = false;
    await synced;
    expect(t.status()).toMatchObject({ online: true, pending: 0, lastError: null });
    await t.close();
  });

  it('pulls on its timer', async () => {
    const shop = await seedShop(h);
    const t = await till({ autoSync: true, realtime: false, syncIntervalMs: 20 });
    await signIn(t, shop);
    await until(() => t.status().bootstrapped, 5000, 'first sync');
    const p = (await h.t.request('POST', '/inventory/products', { token: shop.owner.token, body: { name: 'Maji 1l', selling_price: 600 } }))
      .body.data;
    await until(async () => (await t.product(p.id)) !== null, 5000, 'the new product pulled');
    await t.close();
  });

  it('syncs when the server pokes it over the websocket', async () => {
    const shop = await seedShop(h);
    const t = await till({ autoSync: true, syncIntervalMs: 600_000 });
    await signIn(t, shop);
    await until(() => t.status().live && t.status().bootstrapped && !t.status().syncing, 5000, 'first sync, socket open');
    await new Promise((r) => setTimeout(r, 50));
    await until(() => !t.status().syncing, 5000, 'quiet');
    const from = h.net.calls.length;
    const p = (await h.t.request('POST', '/inventory/products', { token: shop.owner.token, body: { name: 'Mkate', selling_price: 1500 } }))
      .body.data;
    await until(async () => (await t.product(p.id)) !== null, 5000, 'the poked pull');
    expect(count(from, 'GET /sync/pull')).toBeGreaterThan(0);
    await t.close();
  });
});

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { backoffDelay, type Till } from '@duka/client-sdk';
import { type Harness, nextEvent, seedShop, signIn, tillServer, until } from './harness.js';

describe('backoffDelay defaults', () => {
  it('doubles from 1 s and waits at most 30 s, however many attempts failed', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, {}, () => 1))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000]);
    expect(backoffDelay(1_000_000, {}, () => 1)).toBe(30_000);
    expect(backoffDelay(1_000_000, {}, () => 0)).toBe(15_000);
  });
});

describe('till: noticing the network back', () => {
  const server = tillServer();
  let h: Harness;
  beforeAll(() => void (h = server.h));
  afterEach(() => vi.restoreAllMocks());
  const till = server.till;
  const pings = (from: number) => h.net.calls.slice(from).filter((c) => c === 'GET /sync/ping').length;
  // The next retry 20 s away: what a till's backoff has grown to after a few failures.
  const slowRetries = {
    autoSync: true,
    realtime: false,
    syncIntervalMs: 600_000,
    backoff: { baseMs: 40_000, maxMs: 40_000 },
    random: () => 0,
  } as const;

  /** Sell while cut off, and wait for the failed sync: answers when the next retry is due (ms from now). */
  async function sellOffline(t: Till, productId: string): Promise<number> {
    h.net.offline = true;
    const failed = nextEvent(t, 'offline');
    await t.sell({ lines: [{ product_id: productId, qty: 1 }], payment_method: 'Cash' });
    await failed;
    await until(() => !t.status().syncing && t.status().nextSyncAt !== null, 5000, 'the retry scheduled');
    return Date.parse(t.status().nextSyncAt!) - h.t.clock.now();
  }

  it('probes the server every few seconds while it is out of reach and syncs as soon as it answers, long before its backoff', async () => {
    const shop = await seedShop(h);
    const t = await till({ ...slowRetries, probeIntervalMs: 50 });
    await signIn(t, shop);
    await t.whenSynced();
    await until(() => !t.status().syncing, 5000, 'the first sync');
    const from = h.net.calls.length;
    expect(await sellOffline(t, shop.soda.id)).toBe(20_000);
    await until(() => pings(from) >= 3, 5000, 'three probes');
    expect(t.status()).toMatchObject({ online: false, pending: 1 });

    const backAt = Date.now();
    h.net.offline = false;
    // Well inside the 20 s the backoff would wait (a loaded test machine may take a second or two).
    await t.whenSynced({ timeoutMs: 5000 });
    expect(Date.now() - backAt).toBeLessThan(5000);
    expect(t.status()).toMatchObject({ online: true, pending: 0, lastError: null });
    // Probing stops once the server answers.
    const probed = pings(from);
    await new Promise((r) => setTimeout(r, 200));
    expect(pings(from)).toBe(probed);
  });

  it('syncs at once on a browser’s online event, and stops listening when it closes', async () => {
    const network = new EventTarget();
    const add = vi.spyOn(network, 'addEventListener');
    const remove = vi.spyOn(network, 'removeEventListener');
    const shop = await seedShop(h);
    // No probe within the test: only the event can bring the sale up.
    const t = await till({ ...slowRetries, probeIntervalMs: 600_000, network });
    expect(add).toHaveBeenCalledWith('online', expect.any(Function));
    await signIn(t, shop);
    await t.whenSynced();
    await until(() => !t.status().syncing, 5000, 'the first sync');
    expect(await sellOffline(t, shop.unga.id)).toBe(20_000);

    h.net.offline = false;
    await new Promise((r) => setTimeout(r, 200));
    expect(t.status()).toMatchObject({ online: false, pending: 1 });
    const synced = nextEvent(t, 'synced', 5000);
    network.dispatchEvent(new Event('online'));
    expect((await synced)[0]).toMatchObject({ pushed: 1 });
    expect(t.status().pending).toBe(0);

    await t.close();
    const onlineListener = add.mock.calls.find(([type]) => type === 'online')![1];
    expect(remove).toHaveBeenCalledWith('online', onlineListener);
    expect(remove.mock.calls.map(([type]) => type).sort()).toEqual(['offline', 'online']);
  });

  it('goes offline on the platform’s offline event at once, and online within 2 s of the network returning, by its probe', async () => {
    const network = new EventTarget();
    const shop = await seedShop(h);
    // The default probe interval; no sync due on a timer within the test.
    const t = await till({ autoSync: true, realtime: false, syncIntervalMs: 600_000, network });
    await signIn(t, shop);
    await t.whenSynced();
    await until(() => t.status().online && !t.status().syncing, 5000, 'online');

    h.net.offline = true;
    const wentOffline = nextEvent(t, 'offline', 500);
    const droppedAt = Date.now();
    network.dispatchEvent(new Event('offline'));
    await wentOffline;
    expect(Date.now() - droppedAt).toBeLessThan(100);
    expect(t.status().online).toBe(false);

    // No `online` event (a network back without the platform saying so): the probe finds it.
    const from = h.net.calls.length;
    const backOnline = nextEvent(t, 'online', 4000);
    const backAt = Date.now();
    h.net.offline = false;
    await backOnline;
    expect(Date.now() - backAt).toBeLessThan(2_500);
    expect(pings(from)).toBeGreaterThanOrEqual(1);
    expect(t.status().online).toBe(true);
  });

  it('keeps the Node platform working without network events: a failed call, then its probe', async () => {
    const shop = await seedShop(h);
    const t = await till({ ...slowRetries, probeIntervalMs: 50 });
    await signIn(t, shop);
    await t.whenSynced();
    await until(() => !t.status().syncing, 5000, 'the first sync');
    await sellOffline(t, shop.rice.id);
    expect(t.status().online).toBe(false);
    h.net.offline = false;
    await nextEvent(t, 'online', 2000);
    await t.whenSynced({ timeoutMs: 5000 });
    expect(t.status()).toMatchObject({ online: true, pending: 0 });
  });
});

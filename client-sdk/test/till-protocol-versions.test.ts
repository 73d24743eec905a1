/**
 * Issue 51: the sync protocol's version negotiated. A till of the previous version (the SDK as it
 * was before issue 51, built from git: previous-till.ts) keeps working against today's server; a
 * current till whose server answers version 1 refuses a sale that needs version 2 (a decimal
 * quantity, a pack, a scale label) with a clear error while a whole-unit sale goes through, and
 * holds such a sale it queued before it heard the server is older, until the server speaks 2. A load
 * balancer's own 502 (no version header) while a server restarts does not make the server older.
 */
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { type HeldForServer, TillError } from '@duka/client-sdk';
import { type Harness, seedShop, serverView, signIn, tillServer } from './harness.js';
import { previousTill } from './previous-till.js';

describe('till: the sync protocol version, old tills and old servers', () => {
  const server = tillServer();

  /** The network to the real server, its answers' version header dropped while `old.v1` (a version-1 server says none). */
  function versionOne(h: Harness) {
    const old = { v1: true };
    const fetch = async (input: string, init?: RequestInit) => {
      const res = await h.net.fetch(input, init);
      if (!old.v1) return res;
      const headers = new Headers(res.headers);
      headers.delete(PROTOCOL_HEADER);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    };
    return { old, fetch };
  }

  const sugarOf = async (h: Harness, token: string) =>
    (await h.t.request('POST', '/inventory/products', { token, body: { name: 'Sukari', unit: 'kg', selling_price: 3200, stock: 10 } })).body
      .data as { id: string; stock: number };

  it('a till of the previous version bootstraps, sells whole units offline with one method each, pushes; the server books them exactly', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const { Till } = await previousTill();
    const t = await Till.open({
      baseUrl: h.base,
      dbPath: ':memory:',
      deviceName: 'Old till',
      autoSync: false,
      fetch: h.net.fetch,
      now: h.t.clock.now,
    });
    try {
      await t.login(shop.owner.phone, shop.owner.password);
      await t.syncNow();
      expect((await t.product(shop.soda.id))?.stock).toBe(40);
      h.net.offline = true;
      const cash = await t.sell({
        lines: [
          { product_id: shop.soda.id, qty: 3 },
          { product_id: shop.unga.id, qty: 1 },
          { product_id: shop.soda.id, qty: 1 },
        ],
        payment_method: 'Cash',
        cash_tendered: 10_000,
      });
      const bank = await t.sell({ lines: [{ product_id: shop.rice.id, qty: 2 }], payment_method: 'Bank', payment_reference: 'CRDB-7781' });
      expect([cash.total, cash.change_given, bank.total]).toEqual([6500, 3500, 6400]);
      h.net.offline = false;
      expect(await t.syncNow()).toMatchObject({ pushed: 2 });
      const view = await serverView(h, shop);
      const booked = (await view.transactions()).items.sort((a, b) => a.total - b.total);
      expect(
        booked.map((s) => [s.total, s.payment_method, s.cash_tendered, s.change_given, s.lines.map((l: { qty: number }) => l.qty)]),
      ).toEqual([
        [6400, 'Bank', null, null, [2]],
        [6500, 'Cash', 10_000, 3500, [4, 1]],
      ]);
      expect(booked.map((s) => s.payments.map((p: { method: string; amount: number }) => [p.method, p.amount]))).toEqual([
        [['Bank', 6400]],
        [['Cash', 6500]],
      ]);
      expect([await view.stock(shop.soda.id), await view.stock(shop.unga.id), await view.stock(shop.rice.id)]).toEqual([36, 29, 23]);
      expect(await t.conflicts()).toEqual([]);
      expect(await t.rejected()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('a current till whose server answers version 1 refuses 0.5 kg with a clear error; a whole-unit sale goes through', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const sugar = await sugarOf(h, shop.owner.token);
    const { fetch } = versionOne(h);
    const t = await server.till({ fetch });
    await signIn(t, shop);
    await t.syncNow();
    expect(t.status().serverProtocol).toBe(1);
    h.net.offline = true;
    const half = await t.sell({ lines: [{ product_id: sugar.id, qty: 0.5 }], payment_method: 'Cash' }).catch((e: unknown) => e);
    expect(half).toBeInstanceOf(TillError);
    expect(half).toMatchObject({
      code: 'UPDATE_SERVER',
      message:
        "selling a decimal quantity (by weight or volume) needs a server that speaks sync protocol 2; this till's server speaks 1: update the server, then sync",
    });
    const whole = await t.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash' });
    expect(whole.total).toBe(2000);
    h.net.offline = false;
    expect(await t.syncNow()).toMatchObject({ pushed: 1 });
    const view = await serverView(h, shop);
    expect([await view.stock(shop.soda.id), await view.stock(sugar.id)]).toEqual([38, 10]);
  });

  it('holds a 0.5 kg sale queued before it heard its server speaks 1, says so, and pushes it once the server speaks 2', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const sugar = await sugarOf(h, shop.owner.token);
    const { old, fetch } = versionOne(h);
    old.v1 = false;
    const t = await server.till({ fetch, pushBatchSize: 1 });
    await signIn(t, shop);
    await t.syncNow();
    expect(t.status().serverProtocol).toBe(4);
    h.net.offline = true;
    await t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    await t.sell({ lines: [{ product_id: sugar.id, qty: 0.5 }], payment_method: 'Cash' });
    h.net.offline = false;
    // The server went back to a version-1 build: the first sale's answer says so, and the second waits.
    old.v1 = true;
    const held: HeldForServer[] = [];
    t.on('held', (e) => held.push(e));
    expect(await t.syncNow()).toMatchObject({ pushed: 1 });
    expect(held[0]).toEqual({ count: 1, server_protocol: 1, needed: 2 });
    expect(t.status()).toMatchObject({ pending: 1, heldForServer: 1, serverProtocol: 1, rejected: 0 });
    const view = await serverView(h, shop);
    expect([await view.stock(shop.soda.id), await view.stock(sugar.id)]).toEqual([39, 10]);

    old.v1 = false;
    expect(await t.syncNow()).toMatchObject({ pushed: 1 });
    expect(t.status()).toMatchObject({ pending: 0, heldForServer: 0, serverProtocol: 4 });
    expect(await view.stock(sugar.id)).toBe(9.5);
  });
  it("a load balancer's own 502 while a server restarts, without the version header, leaves the till's server at its version: a split sale still sells", async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const balancer = { down: false };
    const fetch = async (input: string, init?: RequestInit) =>
      balancer.down
        ? new Response('<html><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          })
        : h.net.fetch(input, init);
    const t = await server.till({ fetch });
    await signIn(t, shop);
    await t.syncNow();
    expect(t.status().serverProtocol).toBe(PROTOCOL_VERSION);
    await t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    balancer.down = true;
    await t.syncNow().catch(() => undefined);
    expect(t.status()).toMatchObject({ pending: 1, serverProtocol: PROTOCOL_VERSION });
    const split = await t.sell({
      lines: [{ product_id: shop.unga.id, qty: 5 }],
      payments: [
        { method: 'Cash', amount: 2500 },
        { method: 'Bank', amount: 10_000, reference: 'CRDB-5521' },
      ],
    });
    expect(split.total).toBe(12_500);
    balancer.down = false;
    expect(await t.syncNow()).toMatchObject({ pushed: 2 });
    const view = await serverView(h, shop);
    expect([await view.stock(shop.soda.id), await view.stock(shop.unga.id)]).toEqual([39, 25]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneChangeLog } from '../../server/src/sync/pull/services/prune.js';
import type { BootstrapProgress, Till } from '@duka/client-sdk';
import { type Harness, openTill, seedShop, signIn, startServer } from './harness.js';

const DAY = 86_400_000;

describe('till replica: bootstrap, local reads, pull', () => {
  let h: Harness;
  const tills: Till[] = [];
  beforeAll(async () => (h = await startServer()));
  afterAll(async () => {
    await Promise.all(tills.map((t) => t.close()));
    await h.close();
  });
  const till = async (o: Parameters<typeof openTill>[1] = {}) => {
    const t = await openTill(h, o);
    tills.push(t);
    return t;
  };

  it('bootstraps in pages with progress, then answers every read locally with the network down', async () => {
    const shop = await seedShop(h);
    const { token } = shop.owner;
    const post = async (path: string, body: Record<string, unknown>) => (await h.t.request('POST', path, { token, body })).body.data;
    const delivery = await post('/inventory/products', { name: 'Delivery', selling_price: 2000, is_service: true });
    const hamisi = await post('/customers', { name: 'Mzee Hamisi', phone: '0754000111' });
    await post('/customers', { name: 'Bi Mwanaidi', phone: '0754000222' });
    const credit = await post('/pos/sale', {
      lines: [{ product_id: shop.unga.id, qty: 2 }],
      payment_method: 'Credit',
      customer_id: hamisi.id,
    });
    await post('/pos/sale', { lines: [{ product_id: shop.soda.id, qty: 3 }], payment_method: 'Cash' });
    await post('/notifications', { category: 'system', title: 'Karibu', body: 'Welcome to Duka' });

    const t = await till({ bootstrapPageSize: 4 });
    const progress: BootstrapProgress[] = [];
    t.on('progress', (p) => progress.push(p));
    await signIn(t, shop);
    const report = await t.syncNow();
    expect(report.bootstrapped).toBe(true);
    expect(progress.length).toBeGreaterThan(2);
    const total = progress[0]!.total;
    expect(progress.every((p) => p.total === total)).toBe(true);
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    expect(progress.at(-1)!.done).toBe(total);
    expect(t.status()).toMatchObject({ bootstrapped: true, online: true, pending: 0, lastError: null });

    h.net.offline = true;
    expect((await t.productByCode('6161100000017'))?.id).toBe(shop.soda.id);
    expect((await t.productByCode('UNGA-2'))?.id).toBe(shop.unga.id);
    expect(await t.productByCode('nothing')).toBeNull();
    expect((await t.searchProducts('soda')).map((p) => p.name)).toEqual(['Soda 500ml']);
    expect((await t.searchProducts('')).map((p) => p.name)).toEqual(['Delivery', 'Rice 1kg', 'Soda 500ml', 'Unga 2kg']);
    expect((await t.categories()).map((c) => c.name)).toEqual(['Drinks']);
    expect(await t.product(shop.soda.id)).toMatchObject({ stock: 37, selling_price: 1000, is_low_stock: false });
    expect(await t.stock(shop.unga.id)).toBe(28);
    expect(await t.stock(delivery.id)).toBeNull();
    expect((await t.customers()).map((c) => c.name)).toEqual(['Bi Mwanaidi', 'Mzee Hamisi']);
    expect((await t.customers({ owing: true })).map((c) => [c.name, c.outstanding_balance])).toEqual([['Mzee Hamisi', 5000]]);
    expect((await t.customers({ search: '0754000111' })).map((c) => c.name)).toEqual(['Mzee Hamisi']);
    expect((await t.creditTabs(hamisi.id)).map((tab) => [tab.transaction_id, tab.balance])).toEqual([[credit.id, 5000]]);
    const recent = await t.recentTransactions();
    expect(recent.map((r) => [r.total, r.sync_state])).toEqual([
      [3000, 'synced'],
      [5000, 'synced'],
    ]);
    expect((await t.transaction(credit.id))?.receipt_number).toBe(credit.receipt_number);
    expect((await t.notifications()).map((n) => n.title)).toEqual(['Karibu']);
    expect((await t.store())?.code).toBeTruthy();
    expect((await t.organisation())?.name).toBe('Mama Asha Duka');
    h.net.offline = false;
  });

  type Page = { rows: Array<{ entity: string; id: string; data: Record<string, unknown> }>; page_token: string | null };
  /** The server's bootstrap pages through `edit` (page n, from 0) on their way to the till. */
  const editingBootstrap = (edit: (page: Page, n: number) => void): typeof h.net.fetch => {
    let n = 0;
    return async (input, init) => {
      const res = await h.net.fetch(input, init);
      if (!new URL(input).pathname.endsWith('/sync/bootstrap')) return res;
      const body = (await res.json()) as { data: Page };
      edit(body.data, n++);
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      headers.delete('content-encoding');
      return new Response(JSON.stringify(body), { status: res.status, headers });
    };
  };

  it('keeps the last version of a row the snapshot sends again in a later page', async () => {
    const shop = await seedShop(h);
    let early: { id: string; data: Record<string, unknown> } | undefined;
    let pages = 0;
    const fetch = editingBootstrap((page, n) => {
      pages++;
      if (n === 0) early = page.rows.find((r) => r.entity === 'product');
      // A product of page 1, sold down and renamed while the download ran, comes again in the last page.
      if (n > 0 && !page.page_token && early)
        page.rows.push({ entity: 'product', ...early, data: { ...early.data, name: 'Renamed', stock: 12 } });
    });
    const t = await till({ bootstrapPageSize: 4, fetch });
    await signIn(t, shop);
    expect((await t.syncNow()).bootstrapped).toBe(true);
    expect(pages).toBeGreaterThan(1);
    expect(early).toBeDefined();
    expect(await t.product(early!.id)).toMatchObject({ name: 'Renamed', stock: 12 });
    expect(await t.stock(early!.id)).toBe(12);
    expect((await t.searchProducts('renamed')).map((p) => p.id)).toEqual([early!.id]);
    expect(await t.searchProducts('')).toHaveLength(3);
  });

  it('downloads afresh after a bootstrap cut off mid-way: nothing of the first attempt stays', async () => {
    const shop = await seedShop(h);
    const { token } = shop.owner;
    const gone = (await h.t.request('POST', '/inventory/products', { token, body: { name: 'Aaa gone soon', selling_price: 100 } })).body
      .data;
    let cut = true;
    const fetch = editingBootstrap((_page, n) => {
      if (n === 1 && cut) throw new TypeError('fetch failed: connection reset');
    });
    const t = await till({ bootstrapPageSize: 4, fetch });
    await signIn(t, shop);
    await t.syncNow().catch(() => undefined);
    expect(t.status().bootstrapped).toBe(false);
    expect(await t.product(gone.id)).toBeNull();

    expect((await h.t.request('DELETE', `/inventory/products/${gone.id}`, { token })).status).toBe(204);
    cut = false;
    expect((await t.syncNow()).bootstrapped).toBe(true);
    expect(await t.product(gone.id)).toBeNull();
    expect((await t.searchProducts('')).map((p) => p.name)).toEqual(['Rice 1kg', 'Soda 500ml', 'Unga 2kg']);
    expect(await t.stock(shop.soda.id)).toBe(40);
  });

  it('pulls updates and deletes: a new price, a sale made elsewhere, a product removed, a tab settled', async () => {
    const shop = await seedShop(h);
    const { token } = shop.owner;
    const hamisi = (await h.t.request('POST', '/customers', { token, body: { name: 'Mzee Hamisi' } })).body.data;
    await h.t.request('POST', '/pos/sale', {
      token,
      body: { lines: [{ product_id: shop.rice.id, qty: 1 }], payment_method: 'Credit', customer_id: hamisi.id },
    });
    const t = await till();
    await signIn(t, shop);
    await t.syncNow();
    expect(await t.creditTabs(hamisi.id)).toHaveLength(1);

    await h.t.request('PATCH', `/inventory/products/${shop.unga.id}`, { token, body: { selling_price: 2600 } });
    await h.t.request('POST', '/pos/sale', { token, body: { lines: [{ product_id: shop.soda.id, qty: 5 }], payment_method: 'Cash' } });
    const removed = (await h.t.request('POST', '/inventory/products', { token, body: { name: 'Old stock', selling_price: 100 } })).body
      .data;
    await t.syncNow();
    expect(await t.product(removed.id)).not.toBeNull();
    expect((await h.t.request('DELETE', `/inventory/products/${removed.id}`, { token })).status).toBe(204);
    await h.t.request('POST', `/credits/customers/${hamisi.id}/payments`, { token, body: { amount: 3200, method: 'Cash' } });

    const report = await t.syncNow();
    expect(report.bootstrapped).toBe(false);
    expect(report.pulled).toBeGreaterThan(0);
    expect((await t.product(shop.unga.id))?.selling_price).toBe(2600);
    expect(await t.stock(shop.soda.id)).toBe(35);
    expect(await t.product(removed.id)).toBeNull();
    expect(await t.stock(removed.id)).toBeNull();
    expect(await t.creditTabs(hamisi.id)).toEqual([]);
    expect((await t.customer(hamisi.id))?.outstanding_balance).toBe(0);
    expect(await t.recentTransactions()).toHaveLength(2);
  });

  it('on reset_required pushes the queue first, then bootstraps again, keeping its own sales', async () => {
    const shop = await seedShop(h);
    const t = await till({ bootstrapPageSize: 5 });
    await signIn(t, shop);
    await t.syncNow();
    const missed = (
      await h.t.request('POST', '/inventory/products', { token: shop.owner.token, body: { name: 'Chumvi', selling_price: 400 } })
    ).body.data;

    // A month and more offline: the change log is pruned past the till's cursor.
    h.net.offline = true;
    h.t.clock.advance(h.t.config.CHANGE_LOG_RETENTION_DAYS * DAY + DAY);
    const sale = await t.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash' });
    const owner = await h.t.request('POST', '/auth/login', { body: { identifier: shop.owner.phone, password: shop.owner.password } });
    const fresh = (
      await h.t.request('POST', '/inventory/products', {
        token: owner.body.data.access_token,
        body: { name: 'Pilipili', selling_price: 500, stock: 9 },
      })
    ).body.data;
    expect((await pruneChangeLog(h.t.deps)).deleted).toBeGreaterThan(0);
    h.net.offline = false;

    await signIn(t, shop);
    const progress: BootstrapProgress[] = [];
    t.on('progress', (p) => progress.push(p));
    const before = h.net.calls.length;
    const report = await t.syncNow();
    const calls = h.net.calls.slice(before).map((c) => c.split('?')[0]);
    expect(calls.indexOf('POST /sync/push')).toBeLessThan(calls.indexOf('GET /sync/bootstrap'));
    expect(calls).toContain('GET /sync/pull');
    expect(report).toMatchObject({ bootstrapped: true, pushed: 1 });
    expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
    expect((await t.product(fresh.id))?.name).toBe('Pilipili');
    expect((await t.product(missed.id))?.name).toBe('Chumvi');
    const mine = await t.transaction(sale.id);
    expect(mine).toMatchObject({ sync_state: 'synced', client_receipt_number: sale.client_receipt_number });
    expect(mine?.receipt_number).toMatch(/-000001$/);
    expect(await t.stock(shop.soda.id)).toBe(38);
  });
});

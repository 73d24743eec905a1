import { BootstrapResponse, Envelope, NEXT_PAGE_HEADER, PullResponse } from '@duka/shared';
import { pagesAheadHeld } from '../../server/src/sync/pull/services/pages-ahead.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, insertSale, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const DAY = 86_400_000;

describe('GET /sync/bootstrap', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const page = async (s: { token: string }, pageToken?: string, limit?: number) => {
    const qs = new URLSearchParams();
    if (pageToken !== undefined) qs.set('page_token', pageToken);
    if (limit !== undefined) qs.set('limit', String(limit));
    const res = await t.request('GET', `/sync/bootstrap?${qs}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(BootstrapResponse).parse(res.body).data;
  };
  /** Every page; `between` runs after the first. */
  const bootstrapAll = async (s: { token: string }, limit: number, between?: () => Promise<void>) => {
    const pages: BootstrapResponse[] = [await page(s, undefined, limit)];
    if (between) await between();
    while (pages[pages.length - 1]!.page_token) pages.push(await page(s, pages[pages.length - 1]!.page_token!, limit));
    return { pages, rows: pages.flatMap((p) => p.rows), cursor: pages[pages.length - 1]!.cursor, total: pages[0]!.total };
  };
  const pullAll = async (s: { token: string }, cursor: string) => {
    const changes: PullResponse['changes'] = [];
    for (;;) {
      const res = await t.request('GET', `/sync/pull?cursor=${cursor}&limit=2`, { token: s.token });
      const data = Envelope(PullResponse).parse(res.body).data;
      expect(data.reset_required).toBe(false);
      changes.push(...data.changes);
      cursor = data.cursor;
      if (!data.has_more) return changes;
    }
  };
  const post = async (s: { token: string }, path: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', path, { token: s.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data as { id: string };
  };
  const product = (s: { token: string }, body: Record<string, unknown>) => post(s, '/inventory/products', { selling_price: 1000, ...body });
  const key = (c: { entity: string; id: string }) => `${c.entity}:${c.id}`;

  it('pages cover everything the till holds exactly once, with the right total, and nothing else', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    await product(other, { name: 'Ya jirani', stock: 3 });

    const drinks = await post(owner, '/inventory/categories', { name: 'Vinywaji' });
    const food = await post(owner, '/inventory/categories', { name: 'Vyakula' });
    const products: Array<{ id: string }> = [];
    for (let i = 0; i < 4; i++)
      products.push(await product(owner, { name: `Bidhaa ${i}`, category_id: i % 2 ? drinks.id : food.id, stock: 20 }));
    const service = await product(owner, { name: 'Kuchaji simu', is_service: true });
    const customers: Array<{ id: string }> = [];
    for (const name of ['Baraka', 'Neema', 'Zawadi']) customers.push(await post(owner, '/customers', { name }));
    const credit = await post(owner, '/pos/sale', {
      lines: [{ product_id: products[0]!.id, qty: 1 }],
      payment_method: 'Credit',
      customer_id: customers[0]!.id,
    });
    const cash = await post(owner, '/pos/sale', { lines: [{ product_id: products[1]!.id, qty: 2 }], payment_method: 'Cash' });
    const note = await post(owner, '/notifications', { category: 'system', title: 'Karibu' });
    await insertSale(t, { orgId: owner.orgId, storeId: owner.storeId, total: 500, at: t.clock.now() - 40 * DAY });
    const branch = await addStore(t, owner.orgId, 'Tawi');
    await insertSale(t, { orgId: owner.orgId, storeId: branch.id, total: 700 });

    const expected = new Set([
      `organisation:${owner.orgId}`,
      `store:${owner.storeId}`,
      `category:${drinks.id}`,
      `category:${food.id}`,
      ...[...products, service].map((p) => `product:${p.id}`),
      ...products.map((p) => `stock:${p.id}`),
      ...customers.map((c) => `customer:${c.id}`),
      `credit_tab:${(await t.db.db.selectFrom('credit_tabs').select('id').where('transaction_id', '=', credit.id).executeTakeFirstOrThrow()).id}`,
      `transaction:${credit.id}`,
      `transaction:${cash.id}`,
      `notification:${note.id}`,
    ]);

    const { pages, rows, cursor, total } = await bootstrapAll(owner, 4);
    expect(total).toBe(expected.size);
    expect(pages.length).toBe(Math.ceil(expected.size / 4));
    expect(pages.every((p) => p.total === total && p.cursor === cursor)).toBe(true);
    expect(pages.slice(0, -1).every((p) => p.rows.length === 4)).toBe(true);
    expect(rows.map(key)).toEqual([...new Set(rows.map(key))]);
    expect(new Set(rows.map(key))).toEqual(expected);
    const order = ['organisation', 'store', 'category', 'product', 'stock', 'customer', 'credit_tab', 'transaction', 'notification'];
    expect(rows.map((r) => order.indexOf(r.entity))).toEqual(rows.map((r) => order.indexOf(r.entity)).sort((a, b) => a - b));
    const versions = new Set(rows.map((r) => r.version));
    expect(versions.size).toBe(1);
    expect(rows.every((r) => r.op === 'upsert')).toBe(true);

    // Rows are shaped as the REST routes answer them.
    const rest = await t.request('GET', `/inventory/products/${products[1]!.id}`, { token: owner.token });
    expect(rows.find((r) => r.entity === 'product' && r.id === products[1]!.id)!.data).toEqual(rest.body.data);
    expect(rows.find((r) => r.entity === 'stock' && r.id === products[1]!.id)!.data).toMatchObject({ stock: 18, store_id: owner.storeId });
    expect(rows.find((r) => r.entity === 'customer' && r.id === customers[0]!.id)!.data).toMatchObject({ outstanding_balance: 1000 });
    expect(rows.find((r) => r.entity === 'transaction' && r.id === credit.id)!.data).toMatchObject({
      status: 'credit',
      lines: [expect.objectContaining({ qty: 1 })],
    });
    expect(rows.find((r) => r.entity === 'credit_tab')!.data).toMatchObject({ balance: 1000, customer_name: 'Baraka' });

    // Nothing changed since: pulling from the cursor is empty.
    expect(await pullAll(owner, cursor)).toEqual([]);
    // One page when it all fits.
    const whole = await page(owner, undefined, 1000);
    expect(whole.page_token).toBeNull();
    expect(whole.rows.map(key)).toEqual(rows.map(key));
  });

  it('a write made between pages arrives when pulling from the final cursor', async () => {
    const owner = await registerOwner(t);
    const early = await product(owner, { name: 'A mapema' });
    const late = await product(owner, { name: 'Z baadaye' });
    let added = { id: '' };
    const { rows, cursor } = await bootstrapAll(owner, 2, async () => {
      // Page 1 held the organisation and the store; products come later.
      added = await product(owner, { name: 'Mpya', stock: 4 });
      await t.request('PATCH', `/inventory/products/${early.id}`, { token: owner.token, body: { selling_price: 2500 } });
      await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { name: 'Jina jipya' } });
      expect((await t.request('DELETE', `/inventory/products/${late.id}`, { token: owner.token })).status).toBe(204);
    });
    const changes = await pullAll(owner, cursor);

    // Replay bootstrap then pull into a replica, as a till does.
    const replica = new Map<string, Record<string, unknown>>();
    for (const c of [...rows, ...changes]) {
      if (c.op === 'delete') replica.delete(key(c));
      else replica.set(key(c), c.data!);
    }
    expect(replica.get(`product:${added.id}`)).toMatchObject({ name: 'Mpya', stock: 4 });
    expect(replica.get(`stock:${added.id}`)).toMatchObject({ stock: 4 });
    expect(replica.get(`product:${early.id}`)).toMatchObject({ selling_price: 2500 });
    expect(replica.has(`product:${late.id}`)).toBe(false);
    expect(changes).toContainEqual({ entity: 'product', op: 'delete', id: late.id, version: expect.any(Number), data: null });
    const org = await t.request('GET', '/accounts/organisation', { token: owner.token });
    expect(replica.get(`organisation:${owner.orgId}`)).toEqual(org.body.data);
    expect(changes.every((c) => c.version > rows[0]!.version)).toBe(true);
  });

  it("names the next page's token in a header beside the body, none on the last page; a page read ahead is the till's store's only (issue 53)", async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Tawi la pili');
    await product(owner, { name: 'Soda', stock: 7 });
    const switched = await t.request('POST', '/accounts/switch-store', { token: owner.token, body: { store_id: branch.id } });
    expect(switched.status, switched.text).toBe(200);
    const atBranch = { token: switched.body.data.tokens.access_token as string };

    // Pages of one row: organisation, store, product, stock (the main store's 7).
    const ask = (s: { token: string }, pageToken?: string) =>
      t.request('GET', `/sync/bootstrap?limit=1${pageToken ? `&page_token=${pageToken}` : ''}`, { token: s.token });
    const walk: string[] = [];
    let res = await ask(owner);
    for (;;) {
      const data = Envelope(BootstrapResponse).parse(res.body).data;
      expect(res.headers.get(NEXT_PAGE_HEADER)).toBe(data.page_token);
      walk.push(...data.rows.map((r) => `${r.entity}:${(r.data as { stock?: number }).stock ?? ''}`));
      if (!data.page_token) break;
      // The branch's till sends the main store's token for the stock page, read ahead for the main
      // store: it is answered the branch's own level (none, so no row), never the main store's.
      if (walk.length === 3) {
        const branchPage = Envelope(BootstrapResponse).parse((await ask(atBranch, data.page_token)).body).data;
        expect(branchPage.rows).toEqual([]);
      }
      res = await ask(owner, data.page_token);
    }
    expect(walk).toEqual(['organisation:', 'store:', 'product:7', 'stock:7']);
    expect(res.headers.get(NEXT_PAGE_HEADER)).toBeNull();
  });

  it('reads ahead at most 8 pages at once, server-wide; every till still gets every page (issue 53)', async () => {
    const owners = await Promise.all(Array.from({ length: 12 }, () => registerOwner(t)));
    await Promise.all(owners.map((o) => product(o, { name: 'Chai', stock: 2 })));
    const firsts = await Promise.all(owners.map((o) => page(o, undefined, 1)));
    expect(pagesAheadHeld()).toBeLessThanOrEqual(8);
    const walks = await Promise.all(
      owners.map(async (o, i) => {
        const rows = [...firsts[i]!.rows];
        for (let p = firsts[i]!; p.page_token; ) {
          p = await page(o, p.page_token, 1);
          rows.push(...p.rows);
        }
        return rows.map((r) => r.entity).join(' ');
      }),
    );
    expect(new Set(walks)).toEqual(new Set(['organisation store product stock']));
  });

  it('with levels=products, the same walk without stock rows: each product carries its level (issue 53)', async () => {
    const owner = await registerOwner(t);
    const soda = await product(owner, { name: 'Soda', stock: 7 });
    const chai = await product(owner, { name: 'Chai', stock: 2.5, unit: 'kg' });
    const unstocked = await product(owner, { name: 'Mpya' });
    const service = await product(owner, { name: 'Kuchaji simu', is_service: true });
    await post(owner, '/customers', { name: 'Baraka' });
    const walk = async (levels: string) => {
      const rows: BootstrapResponse['rows'] = [];
      let total = 0;
      let pageToken: string | null = null;
      do {
        const res = await t.request('GET', `/sync/bootstrap?limit=2&levels=${levels}${pageToken ? `&page_token=${pageToken}` : ''}`, {
          token: owner.token,
        });
        expect(res.status, res.text).toBe(200);
        const data = Envelope(BootstrapResponse).parse(res.body).data;
        expect(res.headers.get(NEXT_PAGE_HEADER)).toBe(data.page_token);
        rows.push(...data.rows);
        total = data.total;
        pageToken = data.page_token;
      } while (pageToken);
      return { rows, total };
    };
    const withRows = await walk('rows');
    const inProducts = await walk('products');
    // The two stocked products have a stock row; the one never stocked and the service have none.
    expect(
      withRows.rows
        .filter((r) => r.entity === 'stock')
        .map((r) => r.id)
        .sort(),
    ).toEqual([soda.id, chai.id].sort());
    expect(inProducts.rows.filter((r) => r.entity === 'stock')).toEqual([]);
    expect(inProducts.rows).toEqual(withRows.rows.filter((r) => r.entity !== 'stock'));
    expect(inProducts.total).toBe(inProducts.rows.length);
    expect(withRows.total).toBe(withRows.rows.length);
    // Every level a stock row says, the product's own row says too, in the same unit.
    const productData = new Map(
      inProducts.rows.filter((r) => r.entity === 'product').map((r) => [r.id, r.data as { stock: number; unit: string }]),
    );
    for (const r of withRows.rows.filter((r) => r.entity === 'stock')) {
      const level = r.data as { stock: number; unit: string };
      expect(productData.get(r.id)).toMatchObject({ stock: level.stock, unit: level.unit });
    }
    expect(productData.get(chai.id)).toMatchObject({ stock: 2.5, unit: 'kg' });
    expect(productData.get(unstocked.id)).toMatchObject({ stock: 0 });
    expect(productData.get(service.id)).toMatchObject({ is_service: true });

    const bad = await t.request('GET', '/sync/bootstrap?levels=some', { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'levels', message: expect.any(String) }]);
  });

  it('rejects a page token that was altered, garbled or issued to another organisation (400)', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const mine = (await page(owner, undefined, 1)).page_token!;
    const theirs = (await page(other, undefined, 1)).page_token!;
    const [payload, sig] = mine.split('.');
    const json = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...json, k: 3 })).toString('base64url')}.${sig}`;
    for (const token of [theirs, forged, `${mine}x`, 'garbage', mine.replace('.', '')]) {
      const res = await t.request('GET', `/sync/bootstrap?page_token=${encodeURIComponent(token)}`, { token: owner.token });
      expect(res.status, token).toBe(400);
      expect(res.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'page_token', message: expect.any(String) }]);
      expect(res.text).not.toContain(other.orgId);
    }
    expect((await t.request('GET', `/sync/bootstrap?page_token=${encodeURIComponent(mine)}`, { token: owner.token })).status).toBe(200);
  });
});

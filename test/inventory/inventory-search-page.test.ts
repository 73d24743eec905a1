import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PagedEnvelope, Product } from '@duka/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { createDb } from '../../server/src/db/create-db.js';
import * as wordsMigration from '../../migrations/2026_12_01_0050_product_search_words.js';
import { wordSearch } from '../../server/src/db/dialect.js';
import { PRODUCT_SEARCH } from '../../server/src/modules/inventory/product-search.queries.js';
import { DIALECT } from '../setup/test-db.js';

/** What a search answers, page by page: the order, the total and the rows themselves, as a plain listing answers them. */
describe('inventory: a product search, page by page', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const product = async (s: Session, body: Record<string, unknown>) =>
    (await t.request('POST', '/inventory/products', { token: s.token, body })).body.data as Product;
  const list = async (s: Session, query: string) => {
    const page = PagedEnvelope(Product).parse((await t.request('GET', `/inventory/products${query}`, { token: s.token })).body);
    return { items: page.data, ...(page.meta as { total: number; total_pages: number }) };
  };

  it('orders by name, then id among equal names, the same in a search as in the listing', async () => {
    const owner = await registerOwner(t);
    for (const sku of ['S1', 'S2', 'S3', 'S4']) await product(owner, { name: 'Sabuni Jamaa', sku });
    await product(owner, { name: 'Sabuni Ali', sku: 'S0' });
    await product(owner, { name: 'Unga', sku: 'U1' });
    const listed = (await list(owner, '?page_size=100')).items.filter((p) => p.name.startsWith('Sabuni')).map((p) => p.id);
    expect(listed.slice(1)).toEqual([...listed.slice(1)].sort());

    const pages = [];
    for (const page of [1, 2, 3]) pages.push(await list(owner, `?search=sabuni&page=${page}&page_size=2`));
    expect(pages.flatMap((p) => p.items.map((i) => i.id))).toEqual(listed);
    expect(pages.map((p) => [p.total, p.total_pages])).toEqual([
      [5, 3],
      [5, 3],
      [5, 3],
    ]);
    expect(await list(owner, '?search=sabuni&page=4&page_size=2')).toMatchObject({ items: [], total: 5, total_pages: 3 });
  });

  it('answers each product whole, with the active store’s stock, as the product itself reads', async () => {
    const owner = await registerOwner(t);
    const soap = await product(owner, { name: 'Sabuni Omo', sku: 'OMO1', stock: 7, reorder_point: 2 });
    const none = await product(owner, { name: 'Sabuni Kipande', sku: 'KIP1', track_batches: false });
    const found = (await list(owner, '?search=sabuni')).items;
    const read = async (id: string) => (await t.request('GET', `/inventory/products/${id}`, { token: owner.token })).body.data;
    expect(found).toEqual([await read(none.id), await read(soap.id)]);
    expect(found.map((p) => p.stock)).toEqual([0, 7]);
  });

  it('applies category, status and low-stock filters to the matches, short and long terms alike', async () => {
    const owner = await registerOwner(t);
    const cat = (await t.request('POST', '/inventory/categories', { token: owner.token, body: { name: 'Usafi' } })).body.data;
    await product(owner, { name: 'Sabuni A', category_id: cat.id, stock: 50, reorder_point: 10 });
    await product(owner, { name: 'Sabuni B', category_id: cat.id, stock: 3, reorder_point: 10 });
    await product(owner, { name: 'Sabuni C', stock: 1, reorder_point: 10, is_active: false });
    await product(owner, { name: 'Sabuni D (service)', is_service: true });
    await product(owner, { name: 'Unga', stock: 1 });
    const names = async (query: string) => {
      const page = await list(owner, query);
      return { names: page.items.map((p) => p.name), total: page.total };
    };
    for (const term of ['sabuni', 'sa']) {
      expect(await names(`?search=${term}&low_stock=true`)).toEqual({ names: ['Sabuni B', 'Sabuni C'], total: 2 });
      expect(await names(`?search=${term}&low_stock=false`)).toEqual({ names: ['Sabuni A', 'Sabuni D (service)'], total: 2 });
      expect(await names(`?search=${term}&category_id=${cat.id}&page_size=1`)).toEqual({ names: ['Sabuni A'], total: 2 });
      expect(await names(`?search=${term}&status=inactive`)).toEqual({ names: ['Sabuni C'], total: 1 });
    }
  });

  it('finds, for 1 or 2 letters or digits, the products with a word starting with them, any case', async () => {
    const owner = await registerOwner(t);
    await product(owner, { name: 'Sabuni Omo', sku: 'OMO-1' });
    await product(owner, { name: 'Tomato Paste 70g', sku: 'TP70' });
    await product(owner, { name: 'Mafuta ya Nazi', sku: 'MAF-250' });
    await product(owner, { name: 'Coca-Cola 500ml', sku: 'CC500' });
    const search = async (term: string) => {
      const page = await list(owner, `?search=${encodeURIComponent(term)}`);
      return { names: page.items.map((p) => p.name), total: page.total };
    };
    // "om" starts a word of Sabuni Omo (its name and its SKU), but is only inside "Tomato".
    expect(await search('om')).toEqual({ names: ['Sabuni Omo'], total: 1 });
    expect(await search('OM')).toEqual({ names: ['Sabuni Omo'], total: 1 });
    expect(await search('o')).toEqual({ names: ['Sabuni Omo'], total: 1 });
    // A word of the SKU ("MAF", "250"), a word after a hyphen ("Cola"), a number's first digits.
    expect(await search('ma')).toEqual({ names: ['Mafuta ya Nazi'], total: 1 });
    expect(await search('25')).toEqual({ names: ['Mafuta ya Nazi'], total: 1 });
    expect(await search('co')).toEqual({ names: ['Coca-Cola 500ml'], total: 1 });
    expect(await search('50')).toEqual({ names: ['Coca-Cola 500ml'], total: 1 });
    expect(await search('7')).toEqual({ names: ['Tomato Paste 70g'], total: 1 });
    // Anything but letters and digits is still looked for anywhere, as 3 characters or more are.
    expect(await search('-C')).toEqual({ names: ['Coca-Cola 500ml'], total: 1 });
    expect(await search('to')).toEqual({ names: ['Tomato Paste 70g'], total: 1 });
    expect(await search('mat')).toEqual({ names: ['Tomato Paste 70g'], total: 1 });
  });

  it('keeps the words index (migration 0050) in step with edits, and the migration indexes existing rows', async () => {
    const owner = await registerOwner(t);
    const soap = await product(owner, { name: 'Sabuni Omo', sku: 'S1' });
    const names = async (term: string) => (await list(owner, `?search=${term}`)).items.map((p) => p.name);
    await t.request('PATCH', `/inventory/products/${soap.id}`, { token: owner.token, body: { name: 'Sabuni Jamaa' } });
    expect(await names('om')).toEqual([]);
    expect(await names('ja')).toEqual(['Sabuni Jamaa']);
    await wordsMigration.down(t.db.db);
    await wordsMigration.up(t.db.db);
    // Run again over a finished one (a SQLite migration cut short is finished by the next).
    await wordsMigration.up(t.db.db);
    expect(await names('ja')).toEqual(['Sabuni Jamaa']);
    await product(owner, { name: 'Omo Sachet', sku: 'S2' });
    expect(await names('om')).toEqual(['Omo Sachet']);

    // The statement's words are the index's: the plan reads it (the sequential scan forbidden on
    // PostgreSQL, where the test catalogue is tiny).
    const query = sql`select p.id from products p where ${wordSearch(t.db.dialect, PRODUCT_SEARCH, 'om')}`;
    const plan = await t.db.db.transaction().execute(async (trx) => {
      if (t.db.dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      const rows = await sql`${sql.raw(t.db.dialect === 'postgres' ? 'explain' : 'explain query plan')} ${query}`.execute(trx);
      return rows.rows.map((r) => Object.values(r as object).join(' ')).join('\n');
    });
    // (On the partitioned-by-org layout each partition's index has a name of its own: the condition tells.)
    expect(plan).toMatch(t.db.dialect === 'postgres' ? /Index Cond: \(to_tsvector\('simple'/ : /products_words VIRTUAL TABLE INDEX/);
  });
});

/**
 * SQLite's read pool (server/src/db/read-pool.ts, issue 53): on a database file, a search is read by
 * worker threads with connections of their own; it answers what the main connection answers, and a
 * worker that dies mid-read costs the client nothing.
 */
describe.skipIf(DIALECT !== 'sqlite')('inventory: a product search on SQLite’s read threads', () => {
  let t: TestApp;
  let owner: Session;
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-read-pool-'));
  beforeAll(async () => {
    t = await createTestApp({ sqliteFile: path.join(dir, 'duka.db') });
    owner = await registerOwner(t);
    for (const [name, stock] of [
      ['Sabuni Omo', 7],
      ['Sabuni Jamaa', 0],
      ['Unga Pembe', 3],
      ['Sabuni Ali', 12],
    ] as const)
      await t.request('POST', '/inventory/products', { token: owner.token, body: { name, stock } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = async (term: string) => {
    const res = await t.request('GET', `/inventory/products?search=${term}`, { token: owner.token });
    expect(res.status).toBe(200);
    return res.body as { data: Product[]; meta: { total: number } };
  };
  const pool = () => t.db.readPool!;
  /** Each statement posted to the live workers, from now on. */
  const posted = () => {
    const sent: string[] = [];
    for (const w of pool().workers())
      vi.spyOn(w, 'postMessage').mockImplementation(function (this: Worker, m: unknown) {
        if (typeof m === 'object' && m && 'sql' in m) sent.push(String(m.sql));
        return Worker.prototype.postMessage.call(this, m);
      });
    return sent;
  };

  it('answers from the read threads the rows the main connection reads, a sale’s stock included', async () => {
    expect(pool().workers().length).toBeGreaterThanOrEqual(2);
    const sent = posted();
    const main = (await t.request('GET', '/inventory/products?page_size=100', { token: owner.token })).body.data as Product[];
    const found = await search('sabuni');
    expect(found.data.map((p) => [p.name, p.stock])).toEqual([
      ['Sabuni Ali', 12],
      ['Sabuni Jamaa', 0],
      ['Sabuni Omo', 7],
    ]);
    expect(found.data).toEqual(main.filter((p) => p.name.startsWith('Sabuni')));
    expect(found.meta.total).toBe(3);
    // The search's statement went to a worker; the plain listing did not.
    expect(sent.some((q) => q.includes('products_fts'))).toBe(true);
    expect(sent.length).toBe(2);
    vi.restoreAllMocks();

    // A committed write is there for the next search (WAL: a reader sees what was committed).
    const omo = found.data.find((p) => p.name === 'Sabuni Omo')!;
    const sale = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: omo.id, qty: 2 }], payment_method: 'Cash' },
    });
    expect(sale.status).toBe(201);
    expect((await search('omo')).data.map((p) => p.stock)).toEqual([5]);

    // The reports read there too, and count the sale just committed.
    const reportSent = posted();
    const summary = await t.request('GET', '/analytics/summary', { token: owner.token });
    vi.restoreAllMocks();
    expect(summary.status).toBe(200);
    expect(summary.body.data).toMatchObject({ transaction_count: 1, revenue: sale.body.data.total });
    expect(reportSent.some((q) => q.includes('sales_daily'))).toBe(true);
  });

  it('ends its threads with the handle, a handle that never read included', async () => {
    const handle = createDb({ sqliteFile: path.join(dir, 'unread.db'), readThreads: 2 });
    const readers = handle.readPool!;
    expect(readers.workers().length).toBe(2);
    const exits = readers.workers().map((w) => new Promise((resolve) => w.once('exit', resolve)));
    await handle.close();
    expect(readers.workers()).toEqual([]);
    await Promise.all(exits);
  });

  it('answers in full when a worker dies with a search in hand, and the pool is whole again after', async () => {
    const size = pool().workers().length;
    const expected = await search('sabuni');
    // Every worker dies the moment it is handed a statement: each of those reads runs on the main connection.
    const [first, ...rest] = pool().workers();
    const killed: Worker[] = [];
    for (const w of [first!, ...rest])
      vi.spyOn(w, 'postMessage').mockImplementation(function (this: Worker, m: unknown) {
        Worker.prototype.postMessage.call(this, m);
        killed.push(this);
        void this.terminate();
      });
    const answers = await Promise.all(Array.from({ length: 6 }, () => search('sabuni')));
    vi.restoreAllMocks();
    expect(killed.length).toBeGreaterThan(0);
    for (const a of answers) expect(a).toEqual(expected);
    // Replaced: as many workers as before, none of them the dead ones, and (once open) they answer.
    await vi.waitFor(() => expect(pool().workers().length).toBe(size), { timeout: 10_000 });
    expect(
      pool()
        .workers()
        .some((w) => killed.includes(w)),
    ).toBe(false);
    await vi.waitFor(
      async () => {
        const sent = posted();
        expect(await search('sabuni')).toEqual(expected);
        vi.restoreAllMocks();
        expect(sent.some((q) => q.includes('products_fts'))).toBe(true);
      },
      { timeout: 10_000 },
    );
  });
});

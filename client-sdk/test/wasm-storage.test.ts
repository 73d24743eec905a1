/**
 * The browser's storage engine in Node: SQLite WASM answering the worker protocol on a
 * `MessageChannel` (in-memory VFS: Node has no OPFS), under Kysely and under a real till against
 * the real server. `browser-storage.e2e.test.ts` proves the OPFS parts in Chromium.
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MIGRATIONS, migrateLocal, TillError } from '../src/index.js';
import { workerStorage } from '../src/browser/storage.js';
import { WorkerLink } from '../src/browser/link.js';
import { OpenFailure, type OpenedDatabase } from '../src/browser/serve.js';
import { type Harness, openTill, seedShop, serverView, signIn, startServer, until } from './harness.js';
import { wasmChannel, wasmMemoryStorage, wasmModule } from './wasm.js';
import { stageUpserts } from '../src/replica/apply.js';
import { Stage } from '../src/replica/stage.js';

describe('SQLite WASM through the worker protocol', () => {
  it('migrates the replica, runs statements and reports what they changed', async () => {
    const storage = await wasmMemoryStorage();
    const db = new Kysely<any>({ dialect: storage.dialect });
    await migrateLocal(db);
    const applied = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
    expect(applied.map((m) => m.name)).toEqual(Object.keys(LOCAL_MIGRATIONS).sort());
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['meta', 'queue', 'products', 'stock', 'customers']));

    const insert = await db
      .insertInto('meta')
      .values([
        { key: 'a', value: '1' },
        { key: 'b', value: '2' },
      ])
      .executeTakeFirstOrThrow();
    expect(insert).toMatchObject({ numInsertedOrUpdatedRows: 2n });
    const update = await db.updateTable('meta').set({ value: 'x' }).where('key', 'in', ['a', 'b', 'zz']).executeTakeFirstOrThrow();
    expect(update.numUpdatedRows).toBe(2n);
    expect(await db.insertInto('meta').values({ key: 'c', value: '3' }).returning(['key', 'value']).execute()).toEqual([
      { key: 'c', value: '3' },
    ]);
    // Integers beyond 2^53 come back exact, blobs as bytes, across structured cloning.
    const { rows } = await sql<{
      big: bigint;
      bytes: Uint8Array;
      n: number;
    }>`select 9007199254740993 as big, ${new Uint8Array([1, 2, 255])} as bytes, ${42} as n`.execute(db);
    expect(rows).toEqual([{ big: 9007199254740993n, bytes: new Uint8Array([1, 2, 255]), n: 42 }]);

    // A failed statement is SQLite's error, with better-sqlite3's code.
    await expect(db.insertInto('meta').values({ key: 'a', value: 'dup' }).execute()).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
      message: expect.stringContaining('UNIQUE constraint failed: meta.key'),
    });
    await db.destroy();
  });

  it('runs one transaction at a time on the one connection, and rolls a failed one back', async () => {
    const storage = await wasmMemoryStorage();
    const db = new Kysely<any>({ dialect: storage.dialect });
    await sql`create table counter (n integer not null)`.execute(db);
    await sql`insert into counter values (0)`.execute(db);
    // Read, yield, write: interleaved transactions would lose increments (or fail with "cannot start a transaction within a transaction").
    const bump = () =>
      db.transaction().execute(async (trx) => {
        const { n } = await trx.selectFrom('counter').select('n').executeTakeFirstOrThrow();
        await new Promise((r) => setTimeout(r, 1));
        await trx
          .updateTable('counter')
          .set({ n: n + 1 })
          .execute();
      });
    const outside = db.selectFrom('counter').select('n').execute();
    await Promise.all(Array.from({ length: 20 }, bump));
    expect(await outside).toEqual([{ n: 0 }]);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('counter').set({ n: 1000 }).execute();
        throw new Error('cashier cancelled');
      }),
    ).rejects.toThrow('cashier cancelled');
    expect(await db.selectFrom('counter').select('n').execute()).toEqual([{ n: 20 }]);
    await db.destroy();
    await expect(db.selectFrom('counter').selectAll().execute()).rejects.toThrow();
  });

  it("sends a transaction's begin with its first statement: one message less, and a failed first statement still rolls back", async () => {
    const channel = wasmChannel();
    const sent: string[] = [];
    const post = channel.port.postMessage.bind(channel.port);
    channel.port.postMessage = (m: { op: string; sql?: string; steps?: { sql?: string }[] }) => {
      sent.push(m.op === 'batch' ? `batch ${m.steps!.map((s) => s.sql).join(' + ')}` : `${m.op}${m.sql ? ` ${m.sql}` : ''}`);
      post(m);
    };
    const storage = await workerStorage(channel.port, ':memory:', { end: channel.end });
    const db = new Kysely<any>({ dialect: storage.dialect });
    await sql`create table till_float (n integer not null check (n >= 0))`.execute(db);
    sent.length = 0;
    await db.transaction().execute(async (trx) => {
      await sql`insert into till_float values (500)`.execute(trx);
      await sql`update till_float set n = n + 100`.execute(trx);
    });
    expect(sent).toEqual(['batch begin + insert into till_float values (500)', 'exec update till_float set n = n + 100', 'exec commit']);

    // A transaction that ran nothing costs no message; one whose first statement failed is rolled back.
    sent.length = 0;
    await db.transaction().execute(async () => undefined);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`update till_float set n = n - 1000`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_CHECK' });
    expect(sent).toEqual(['batch begin + update till_float set n = n - 1000', 'exec rollback']);
    expect((await sql<{ n: number }>`select n from till_float`.execute(db)).rows).toEqual([{ n: 600 }]);
    await db.destroy();
  });

  it('refuses to open rather than fall back: no OPFS is STORAGE_UNAVAILABLE, files held elsewhere OPEN_ELSEWHERE', async () => {
    const noOpfs = wasmChannel(async () => {
      throw new OpenFailure('unavailable', 'its private file system is not available (Missing required OPFS APIs.)');
    });
    const refused = await workerStorage(noOpfs.port, 'till.db', { end: noOpfs.end }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TillError);
    expect(refused).toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
      message:
        "this browser cannot keep the till's data: its private file system is not available (Missing required OPFS APIs.). Open the till in a current Chrome, Edge, Firefox or Safari, outside a private window.",
    });
    const held = wasmChannel(async () => {
      throw new OpenFailure('busy', 'the database files are held by another tab');
    });
    await expect(workerStorage(held.port, 'till.db', { end: held.end })).rejects.toMatchObject({
      code: 'OPEN_ELSEWHERE',
      message: expect.stringContaining('already open in another tab'),
    });
  });

  it('fails the queries of a worker that died instead of leaving them waiting, and ends once on close', async () => {
    const channel = wasmChannel();
    let died!: (e: Error) => void;
    const failed = new Promise<never>((_, reject) => (died = reject));
    let ended = 0;
    const storage = await workerStorage(channel.port, ':memory:', { failed, end: () => (ended++, channel.end()) });
    const db = new Kysely<any>({ dialect: storage.dialect });
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    died(new TillError('STORAGE_UNAVAILABLE', 'the database worker stopped (out of memory)'));
    await expect(sql`select 1`.execute(db)).rejects.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
      message: 'the database worker stopped (out of memory)',
    });
    await db.destroy();
    await storage.close();
    expect(ended).toBe(1);
  });
});

describe("the worker's statements: kept prepared, and batched", () => {
  /** A worker half on an in-memory database whose prepares are counted, and whose close checks what it leaves. */
  async function counted() {
    const sqlite3 = await wasmModule();
    const seen = { prepared: [] as string[], unfinalizedAtClose: -1 };
    const channel = wasmChannel(async (): Promise<OpenedDatabase> => {
      const db = new sqlite3.oo1.DB(':memory:', 'c');
      const prepare = db.prepare.bind(db);
      db.prepare = ((text: string) => (seen.prepared.push(text), prepare(text))) as typeof db.prepare;
      const close = db.close.bind(db);
      db.close = () => {
        let n = 0;
        for (let s = sqlite3.capi.sqlite3_next_stmt(db, 0); s; s = sqlite3.capi.sqlite3_next_stmt(db, s)) n++;
        seen.unfinalizedAtClose = n;
        return close();
      };
      return { sqlite3, db };
    });
    const link = new WorkerLink(channel.port);
    await link.request({ op: 'open', name: ':memory:' });
    return { link, seen, end: channel.end };
  }

  it('prepares a statement once, serves it fresh after a schema change and after a failure, and finalizes all on close', async () => {
    const { link, seen, end } = await counted();
    const exec = (sql: string, ...params: unknown[]) => link.request({ op: 'exec', sql, params });
    await exec('create table item (id integer primary key, name text not null unique)');
    for (const name of ['Sukari', 'Unga', 'Chai']) await exec('insert into item (name) values (?)', name);
    expect(seen.prepared.filter((t) => t.startsWith('insert'))).toHaveLength(1);

    // The same text after the table changed shape: SQLite prepares it again itself, no stale columns.
    expect((await exec('select * from item where id = ?', 1))?.rows).toEqual([{ id: 1, name: 'Sukari' }]);
    await exec('alter table item add column price integer not null default 5000');
    expect((await exec('select * from item where id = ?', 1))?.rows).toEqual([{ id: 1, name: 'Sukari', price: 5000 }]);
    await exec('drop table item');
    await exec('create table item (id integer primary key, barcode text)');
    await exec('insert into item (barcode) values (?)', '6160000000017');
    expect((await exec('select * from item where id = ?', 1))?.rows).toEqual([{ id: 1, barcode: '6160000000017' }]);

    // A statement that failed answers the next call with its own result, not the old failure.
    await exec('create unique index item_barcode on item (barcode)');
    await expect(exec('insert into item (barcode) values (?)', '6160000000017')).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_UNIQUE',
    });
    expect(await exec('insert into item (barcode) values (?)', '6160000000024')).toMatchObject({ numAffectedRows: 1n, insertId: 2n });
    // A kept read is reset after use, so it holds no read transaction open: an explicit one begins and commits.
    expect((await exec('select count(*) as n from item'))?.rows).toEqual([{ n: 2 }]);
    await exec('begin');
    await exec('insert into item (barcode) values (?)', '6160000000031');
    await exec('commit');
    expect((await exec('select count(*) as n from item'))?.rows).toEqual([{ n: 3 }]);

    await link.request({ op: 'close' });
    expect(seen.unfinalizedAtClose).toBe(0);
    end();
  });

  it('runs a batch in one message: each result in order, one statement for many rows, the failing step named', async () => {
    const { link, seen, end } = await counted();
    await link.request({ op: 'exec', sql: 'create table stock (product_id text primary key, qty integer not null)', params: [] });
    const results = await link.batch([
      { sql: 'begin', params: [] },
      { sql: 'insert into stock (product_id, qty) values (?, ?)', params: ['p1', 40] },
      { params: ['p2', 30] },
      { params: ['p3', 25] },
      { sql: 'update stock set qty = qty - ? where product_id in (?, ?)', params: [3, 'p1', 'p2'] },
      { sql: 'select product_id, qty from stock order by product_id', params: [] },
      { sql: 'commit', params: [] },
    ]);
    expect(results.slice(1, 6).map((r) => r.numAffectedRows)).toEqual([1n, 1n, 1n, 2n, undefined]);
    expect(results).toHaveLength(7);
    expect(results[3]!.insertId).toBe(3n);
    expect(results[5]!.rows).toEqual([
      { product_id: 'p1', qty: 37 },
      { product_id: 'p2', qty: 27 },
      { product_id: 'p3', qty: 25 },
    ]);
    expect(seen.prepared.filter((t) => t.startsWith('insert'))).toHaveLength(1);

    // The first failure stops the batch and names its step; what ran before it stays, for the caller's transaction to decide.
    await expect(
      link.batch([
        { sql: 'insert into stock (product_id, qty) values (?, ?)', params: ['p4', 1] },
        { params: ['p1', 2] },
        { params: ['p5', 3] },
      ]),
    ).rejects.toMatchObject({ kind: 'sql', code: 'SQLITE_CONSTRAINT_PRIMARYKEY', step: 1 });
    const after = await link.request({ op: 'exec', sql: 'select product_id from stock order by product_id', params: [] });
    expect(after?.rows.map((r) => r.product_id)).toEqual(['p1', 'p2', 'p3', 'p4']);
    await link.request({ op: 'close' });
    end();
  });
});

describe('a bootstrap page staged in the worker (issue 53)', () => {
  const product = (id: string, name: string, more: Record<string, unknown> = {}) => ({
    entity: 'product',
    op: 'upsert',
    id,
    data: { id, name, sku: `SKU-${id}`, barcode: null, stock: 12, is_active: true, ...more },
  });
  const ROWS = [
    { entity: 'category', op: 'upsert', id: 'c1', data: { id: 'c1', name: 'Vinywaji', sort_order: 2 } },
    product('p1', 'Soda 500ml'),
    product('p2', 'Sukari', { unit: 'kg', stock: 1.25, is_active: false, generic_name: 'sugar' }),
    product('p3', 'Delivery', { is_service: true, stock: undefined }),
    { entity: 'customer', op: 'upsert', id: 'k1', data: { id: 'k1', name: 'Asha', phone: '+255712000001', outstanding_balance: 1500.5 } },
    { entity: 'loyalty_card', op: 'upsert', id: 'l1', data: { id: 'l1', points: 7 } },
    // Sent again: the staged row is its last version.
    product('p1', 'Soda 500ml (new)', { stock: 9 }),
  ];
  const bytesOf = (rows: unknown[], more: Record<string, unknown> = {}) =>
    new TextEncoder().encode(JSON.stringify({ data: { rows, page_token: 'next', cursor: 'c-9', total: 240, ...more } }))
      .buffer as ArrayBuffer;
  const TABLES = ['categories', 'products', 'stock', 'customers', 'rows'];
  const staged = async (db: Kysely<any>, tables = TABLES) =>
    Object.fromEntries(
      await Promise.all(tables.map(async (t) => [t, (await sql.raw(`select * from temp.stage_${t} order by 1, 2`).execute(db)).rows])),
    );

  it('maps a page exactly as the Node path does, hears its head first, and answers only counts and tables', async () => {
    const worker = await wasmMemoryStorage();
    const heard: string[] = [];
    const page = bytesOf(ROWS);
    const answer = await worker.stageBootstrapPage(page, (head) => void heard.push(`${head.page_token} ${head.cursor} ${head.total}`));
    // Handed over, not copied: the page is the worker's.
    expect(page.byteLength).toBe(0);
    expect(heard).toEqual(['next c-9 240']);
    expect(answer).toMatchObject({ rows: 7, page_token: 'next', cursor: 'c-9', total: 240 });
    expect(answer.tables.map((t) => t.table)).toEqual(['categories', 'products', 'stock', 'customers', 'rows']);

    // The same rows through Kysely and the till's own staging code, as a Node till stages them.
    const node = await wasmMemoryStorage();
    const nodeDb = new Kysely<any>({ dialect: node.dialect });
    const stage = new Stage();
    await nodeDb.transaction().execute((trx) => stageUpserts(trx, ROWS as never, stage));
    const workerDb = new Kysely<any>({ dialect: worker.dialect });
    const mine = await staged(workerDb);
    expect(mine).toEqual(await staged(nodeDb));
    expect(mine.products.map((p: { id: string; name: string }) => `${p.id} ${p.name}`)).toEqual([
      'p1 Soda 500ml (new)',
      'p2 Sukari',
      'p3 Delivery',
    ]);
    expect(mine.stock).toEqual([
      { product_id: 'p1', qty: 9 },
      { product_id: 'p2', qty: 1250 },
    ]);
    expect(mine.rows).toEqual([{ entity: 'loyalty_card', id: 'l1', data: JSON.stringify({ id: 'l1', points: 7 }) }]);
    await Promise.all([workerDb.destroy(), nodeDb.destroy()]);
  });

  it('refuses a bad page with a clear error, and stages nothing of a page that fails midway', async () => {
    const storage = await wasmMemoryStorage();
    const db = new Kysely<any>({ dialect: storage.dialect });
    const stage = (rows: unknown[], more?: Record<string, unknown>) => storage.stageBootstrapPage(bytesOf(rows, more), () => undefined);
    await expect(
      storage.stageBootstrapPage(new TextEncoder().encode('{"data": {"rows": [').buffer as ArrayBuffer, () => undefined),
    ).rejects.toThrow(/^the bootstrap page is not JSON/);
    await expect(stage(ROWS, { cursor: 7 })).rejects.toThrow('the bootstrap page is not a snapshot page: its cursor is not a string');
    await expect(stage([...ROWS, { entity: 'product', op: 'upsert' }])).rejects.toThrow('its row 7 has no entity and id');

    await stage([product('p9', 'Chai')]);
    // A product the staging table refuses, after the page's category and first product went in: the
    // whole page is undone, what earlier pages staged stays.
    await sql`create temp table stage_categories (id, name, sort_order, data, primary key (id))`.execute(db);
    await sql`create temp trigger no_bad before insert on stage_products when new.name = 'Bad' begin select raise(abort, 'refused'); end`.execute(
      db,
    );
    await expect(stage([ROWS[0], product('p1', 'Soda'), product('p2', 'Bad')])).rejects.toMatchObject({
      kind: 'sql',
      message: expect.stringContaining('refused'),
    });
    const after = await staged(db, ['categories', 'products']);
    expect(after.categories).toEqual([]);
    expect(after.products.map((p: { id: string }) => p.id)).toEqual(['p9']);
    // The connection is no longer inside the page's savepoint: a transaction of the till's begins.
    await db.transaction().execute((trx) => sql`delete from temp.stage_products`.execute(trx));
    await db.destroy();
  });

  it("waits for the till's open transaction to end: a page is never staged inside it, nor rolled back with it", async () => {
    const storage = await wasmMemoryStorage();
    const db = new Kysely<any>({ dialect: storage.dialect });
    await sql`create table note (body text)`.execute(db);
    let staging: Promise<unknown> | undefined;
    let answered = false;
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into note values ('kept?')`.execute(trx);
        let heard!: () => void;
        const isHeard = new Promise<void>((resolve) => (heard = resolve));
        staging = storage.stageBootstrapPage(bytesOf([product('p1', 'Soda')]), () => heard()).then(() => (answered = true));
        // Its rows are asked for a moment after its head is heard; answered after that, the page waits, the transaction goes on.
        await isHeard;
        await new Promise((resolve) => setTimeout(resolve, 0));
        await sql`select 1`.execute(trx);
        expect(answered).toBe(false);
        throw new Error('the sale failed');
      }),
    ).rejects.toThrow('the sale failed');
    await staging;
    expect((await sql`select count(*) as n from note`.execute(db)).rows).toEqual([{ n: 0 }]);
    expect((await staged(db, ['products'])).products.map((p: { id: string }) => p.id)).toEqual(['p1']);
    await db.destroy();
  });
});

describe('a till on SQLite WASM', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

  it('asks for the next bootstrap page as soon as an answer names it, before staging that answer, with at most three pages waiting (issue 53)', async () => {
    const shop = await seedShop(h);
    const made: string[] = [];
    for (const n of [1, 2, 3, 4, 5, 6])
      made.push(
        (
          await h.t.request('POST', '/inventory/products', {
            token: shop.owner.token,
            body: { name: `Bidhaa ${n}`, selling_price: 100 * n, stock: n },
          })
        ).body.data.id,
      );
    const storage = await wasmMemoryStorage();
    const log: string[] = [];
    let waiting = 0;
    let mostWaiting = 0;
    const fetch: typeof h.net.fetch = async (url, init) => {
      const page = String(url).includes('/sync/bootstrap');
      if (page) log.push('ask');
      if (page) expect(new URL(String(url)).searchParams.get('levels')).toBe('products');
      const res = await h.net.fetch(url, init);
      if (page) mostWaiting = Math.max(mostWaiting, ++waiting);
      return res;
    };
    const stageBootstrapPage: typeof storage.stageBootstrapPage = async (bytes, heard) => {
      log.push('stage');
      const staged = await storage.stageBootstrapPage(bytes, heard);
      waiting--;
      return staged;
    };
    const till = await openTill(h, { dbPath: undefined, storage: { ...storage, stageBootstrapPage }, fetch, bootstrapPageSize: 2 });
    await signIn(till, shop);
    const report = await till.syncNow();

    // 2 + 1 category + 9 products, two a page: 6 pages, each asked for once. No stock rows: each
    // product's row carries its level.
    expect(report).toMatchObject({ bootstrapped: true, pulled: 12 });
    expect(log.filter((e) => e === 'ask')).toHaveLength(6);
    // Page 2 is asked for before page 1 is given to the worker: its token came in the answer's header.
    expect(log.slice(0, 3)).toEqual(['ask', 'ask', 'stage']);
    expect(mostWaiting).toBeLessThanOrEqual(3);
    expect(await till.stock(shop.soda.id)).toBe(40);
    for (const [i, id] of made.entries()) expect(await till.stock(id)).toBe(i + 1);
    expect((await till.searchProducts('Bidhaa', { limit: 10 })).map((p) => p.name).sort()).toEqual([
      'Bidhaa 1',
      'Bidhaa 2',
      'Bidhaa 3',
      'Bidhaa 4',
      'Bidhaa 5',
      'Bidhaa 6',
    ]);
    await till.close();
  });

  it('sells offline, syncs, refunds, and agrees with the server to the unit and the shilling', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h, { dbPath: undefined, storage: await wasmMemoryStorage() });
    await signIn(till, shop);
    await till.syncNow();
    const code = (await till.store())!.code;
    expect(await till.stock(shop.soda.id)).toBe(40);

    h.net.offline = true;
    const a = await till.sell({
      lines: [
        { product_id: shop.soda.id, qty: 3 },
        { product_id: shop.unga.id, qty: 2 },
      ],
      payment_method: 'Cash',
    });
    const b = await till.sell({
      lines: [{ product_id: shop.rice.id, qty: 2 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7X2',
      discount_pct: 10,
    });
    expect(a).toMatchObject({ client_receipt_number: `${code}-T1-1`, subtotal: 8000, total: 8000, number: null, sync_state: 'pending' });
    expect(b).toMatchObject({ client_receipt_number: `${code}-T1-2`, subtotal: 6400, discount: 640, total: 5760 });
    expect([await till.stock(shop.soda.id), await till.stock(shop.unga.id), await till.stock(shop.rice.id)]).toEqual([37, 28, 23]);
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    expect(till.status()).toMatchObject({ online: false, pending: 2 });

    h.net.offline = false;
    const report = await till.syncNow();
    expect(report.numbered.map((n) => [n.client_receipt_number, n.receipt_number])).toEqual([
      [`${code}-T1-1`, `${code}-000001`],
      [`${code}-T1-2`, `${code}-000002`],
    ]);

    const refund = await till.refund(a.id, 'customer returned it');
    expect(refund).toMatchObject({ id: a.id, status: 'refunded', total: 8000 });
    expect([await till.stock(shop.soda.id), await till.stock(shop.unga.id)]).toEqual([40, 30]);
    expect(await till.syncNow()).toMatchObject({ pushed: 1 });
    expect(till.status()).toMatchObject({ online: true, pending: 0, lastError: null });

    const server = await serverView(h, shop);
    const { total, items } = await server.transactions();
    expect(total).toBe(2);
    expect(items.map((t) => [t.client_receipt_number, t.status, t.total]).sort()).toEqual([
      [`${code}-T1-1`, 'refunded', 8000],
      [`${code}-T1-2`, 'paid', 5760],
    ]);
    expect([await server.stock(shop.soda.id), await server.stock(shop.unga.id), await server.stock(shop.rice.id)]).toEqual([40, 30, 23]);
    expect(await till.transaction(b.id)).toMatchObject({ receipt_number: `${code}-000002`, sync_state: 'synced', total: 5760 });
    await till.close();
  });

  it('sends a 5-line sale to the worker in two messages: the reads and the numbers with begin, every write with the pending count and the commit (issue 53)', async () => {
    const shop = await seedShop(h);
    const more = async (name: string) =>
      (await h.t.request('POST', '/inventory/products', { token: shop.owner.token, body: { name, selling_price: 1500, stock: 9 } })).body
        .data.id as string;
    const ids = [shop.soda.id, shop.unga.id, shop.rice.id, await more('Chai 100g'), await more('Sabuni')];
    const channel = wasmChannel();
    const sent: string[] = [];
    const post = channel.port.postMessage.bind(channel.port);
    channel.port.postMessage = (m: { op: string; sql?: string; steps?: { sql?: string }[] }) => {
      sent.push(m.op === 'batch' ? `batch ${m.steps!.map((s) => named(s.sql!)).join(' + ')}` : `${m.op} ${named(m.sql ?? '')}`);
      post(m);
    };
    const till = await openTill(h, { dbPath: undefined, storage: await workerStorage(channel.port, ':memory:', { end: channel.end }) });
    await signIn(till, shop);
    await till.syncNow();
    h.net.offline = true;
    await till.openShift({ opening_float: 20000, till_number: 'T1' });
    await until(() => till.status().pending === 1, 5000, 'the pending count');
    sent.length = 0;
    const receipt = await till.sell({ lines: ids.map((product_id, k) => ({ product_id, qty: 1 + (k % 2) })), payment_method: 'Cash' });
    const inSale = [...sent];
    await until(() => till.status().pending === 2, 5000, 'the pending count');
    h.net.offline = false;
    expect(receipt.total).toBe(1000 + 2 * 2500 + 3200 + 2 * 1500 + 1500);
    expect(inSale).toEqual([
      // The receipt number and queue seq ride with the read: they depend on nothing it reads.
      'batch begin + select rows meta shifts products stock + insert meta',
      'batch insert shift_movements + insert transactions + insert stock + insert queue + select queue + commit',
    ]);
    // The pending count came with the writes: nothing is read after the sale.
    expect(sent.slice(inSale.length)).toEqual([]);
    expect(await till.stock(shop.unga.id)).toBe(28);
    expect((await till.shiftReport())!.methods.map((m) => [m.method, m.sales])).toEqual([['Cash', receipt.total]]);
    await till.close();
  });

  for (const kind of ['better-sqlite3', 'SQLite WASM'] as const)
    it(`${kind}: a sale whose last write fails leaves no sale, no stock move, no shift movement, no queue row, no receipt number taken (issue 53)`, async () => {
      const shop = await seedShop(h);
      // The queue row's insert fails (its table named wrong) while `refuse` is on: the sale's last step.
      let refuse = false;
      const spoilt = (text: string) =>
        refuse && text.startsWith('insert into "queue"') ? text.replace('"queue"', '"refused_queue"') : text;
      const till = await openTill(h, {
        dbPath: undefined,
        storage: kind === 'better-sqlite3' ? refusingNode(spoilt) : await refusingWasm(spoilt),
      });
      await signIn(till, shop);
      await till.syncNow();
      h.net.offline = true;
      await till.openShift({ opening_float: 20000, till_number: 'T1' });
      const code = (await till.store())!.code;
      refuse = true;
      await expect(
        till.sell({
          lines: [
            { product_id: shop.soda.id, qty: 3 },
            { product_id: shop.unga.id, qty: 2 },
          ],
          payment_method: 'Cash',
        }),
      ).rejects.toThrow(/refused_queue/);
      expect(await till.recentTransactions()).toEqual([]);
      expect([await till.stock(shop.soda.id), await till.stock(shop.unga.id)]).toEqual([40, 30]);
      expect((await till.shiftReport())!.methods.map((m) => [m.method, m.sales])).toEqual([['Cash', 0]]);

      refuse = false;
      const sale = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 3 }], payment_method: 'Cash' });
      expect(sale.client_receipt_number).toBe(`${code}-T1-1`);
      await until(() => till.status().pending === 2, 5000, 'the pending count (the shift and the one sale)');
      expect(await till.stock(shop.soda.id)).toBe(37);
      expect((await till.shiftReport())!.methods.map((m) => [m.method, m.sales])).toEqual([['Cash', 3000]]);
      h.net.offline = false;
      expect(await till.syncNow()).toMatchObject({ pushed: 2 });
      await till.close();
    });
});

/** `insert meta`, `select meta shifts products stock`: a statement's verb and the tables it names. */
function named(text: string): string {
  const tables = [...text.matchAll(/(?:from|into|join) "(\w+)"/g)].map((m) => m[1]);
  return [text.split(' ')[0], ...new Set(tables)].join(' ');
}

/** better-sqlite3 in memory, every statement's text passed through `spoil` first. */
function refusingNode(spoil: (text: string) => string) {
  const sqlite = new Database(':memory:');
  return new SqliteDialect({ database: { close: () => sqlite.close(), prepare: (text: string) => sqlite.prepare(spoil(text)) } });
}

/** SQLite WASM through the worker protocol, every statement's text passed through `spoil` on its way to the worker. */
function refusingWasm(spoil: (text: string) => string) {
  const channel = wasmChannel();
  const post = channel.port.postMessage.bind(channel.port);
  channel.port.postMessage = (m: { op: string; sql?: string; steps?: { sql?: string; params: unknown[] }[] }) =>
    post(
      m.op === 'batch'
        ? { ...m, steps: m.steps!.map((s) => (s.sql ? { ...s, sql: spoil(s.sql) } : s)) }
        : m.sql
          ? { ...m, sql: spoil(m.sql) }
          : m,
    );
  return workerStorage(channel.port, ':memory:', { end: channel.end });
}

/**
 * The browser's storage engine in Node: SQLite WASM answering the worker protocol on a
 * `MessageChannel` (in-memory VFS: Node has no OPFS), under Kysely and under a real till against
 * the real server. `browser-storage.e2e.test.ts` proves the OPFS parts in Chromium.
 */
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MIGRATIONS, migrateLocal, TillError } from '../src/index.js';
import { workerStorage } from '../src/browser/storage.js';
import { OpenFailure } from '../src/browser/serve.js';
import { type Harness, openTill, seedShop, serverView, signIn, startServer } from './harness.js';
import { wasmChannel, wasmMemoryStorage } from './wasm.js';

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

describe('a till on SQLite WASM', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

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
});

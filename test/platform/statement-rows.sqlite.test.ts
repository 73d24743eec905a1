/**
 * Rows read as arrays and made objects in JavaScript (shared/src/statement-cache.ts, and the read
 * threads of server/src/db/read-pool.ts) must be the rows better-sqlite3 itself would answer: the
 * same names in the same order, a name repeated by a join keeping its first place and its last
 * value, every kind of value as it was, and a write that returns rows returning them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cachingStatements } from '@duka/shared';
import { openSqlite } from '../../server/src/db/sqlite.js';

const dir = mkdtempSync(path.join(tmpdir(), 'duka-statement-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCHEMA = `
  create table a (id text primary key, n integer, x real, t text, b blob, z);
  create table b (id text primary key, a_id text, n integer);
  insert into a values ('a1', 9007199254740991, 1.5, 'chai', x'00ff', null), ('a2', -3, 0, '', x'', 7);
  insert into b values ('b1', 'a1', 42), ('b2', 'a2', 43);`;
const QUERIES = [
  'select * from a order by id',
  // A join naming `id` and `n` twice: the later value in the earlier place.
  'select a.*, b.* from a join b on b.a_id = a.id order by a.id',
  'select count(*) as "count", max(n) from a',
  `select 1 as "__proto__", 2 as "constructor", 3 as "1", 4 as "a b", 5 as "it's", 6 as """q"""`,
  "select * from a where id = 'none'",
];

const plain = () => {
  const db = new SQLite(':memory:');
  db.exec(SCHEMA);
  return db;
};

describe('rows made in JavaScript', () => {
  it('answer what better-sqlite3 answers, names, order and values, through all, get and iterate', () => {
    const mine = cachingStatements(plain());
    const theirs = plain();
    for (const q of QUERIES) {
      const expected = theirs.prepare(q).all();
      const got = (mine.prepare(q) as SQLite.Statement).all();
      expect(got, q).toEqual(expected);
      expect(
        got.map((r) => Object.keys(r as object)),
        q,
      ).toEqual(expected.map((r) => Object.keys(r as object)));
      expect(
        got.map((r) => Object.getPrototypeOf(r)),
        q,
      ).toEqual(expected.map(() => Object.prototype));
      expect((mine.prepare(q) as SQLite.Statement).get(), q).toEqual(theirs.prepare(q).get());
      expect([...(mine.prepare(q) as SQLite.Statement).iterate()], q).toEqual(expected);
    }
    const row = (mine.prepare(QUERIES[1]!) as SQLite.Statement).all()[0] as Record<string, unknown>;
    expect(row).toEqual({ id: 'b1', n: 42, x: 1.5, t: 'chai', b: Buffer.from([0, 255]), z: null, a_id: 'a1' });
  });

  it('return the rows a write returns, and write once', () => {
    const mine = cachingStatements(plain());
    const insert = mine.prepare("insert into b values ('b3', 'a1', 44) returning id, n") as SQLite.Statement;
    expect(insert.all()).toEqual([{ id: 'b3', n: 44 }]);
    expect((mine.prepare('select count(*) as c from b') as SQLite.Statement).get()).toEqual({ c: 3 });
  });

  it("follow the schema: `select *` answers a table's columns as they are after a column is added, renamed or dropped", () => {
    const raw = plain();
    const mine = cachingStatements(raw);
    const all = () => (mine.prepare("select * from b where id = 'b1'") as SQLite.Statement).all();
    const get = () => (mine.prepare("select * from b where id = 'b1'") as SQLite.Statement).get();
    const run = (text: string) => (mine.prepare(text) as SQLite.Statement).run();
    expect(all()).toEqual([{ id: 'b1', a_id: 'a1', n: 42 }]);
    // Through the cache, as the migrations change the schema: added, renamed (as many columns), dropped.
    run("alter table b add column note text default 'chai'");
    expect(all()).toEqual([{ id: 'b1', a_id: 'a1', n: 42, note: 'chai' }]);
    run('alter table b rename column n to qty');
    expect(get()).toEqual({ id: 'b1', a_id: 'a1', qty: 42, note: 'chai' });
    expect(all()).toEqual([{ id: 'b1', a_id: 'a1', qty: 42, note: 'chai' }]);
    run('alter table b drop column note');
    expect([...(mine.prepare("select * from b where id = 'b1'") as SQLite.Statement).iterate()]).toEqual([
      { id: 'b1', a_id: 'a1', qty: 42 },
    ]);
    // Behind the cache's back, on the connection itself: a column more is still seen.
    raw.exec('alter table b add column extra integer default 7');
    expect(all()).toEqual([{ id: 'b1', a_id: 'a1', qty: 42, extra: 7 }]);
  });

  it('through the server, on the writer and on the read threads alike', async () => {
    const file = path.join(dir, 'rows.db');
    const seed = new SQLite(file);
    seed.pragma('journal_mode = WAL');
    seed.exec(SCHEMA);
    seed.close();
    const handle = openSqlite(file, undefined, undefined, undefined, { threads: 1 });
    try {
      // What the read thread answers: once it has opened the database, every read below is its.
      let answered = 0;
      handle.readPool!.workers()[0]!.on('message', (m: unknown) => void (typeof m === 'object' && answered++));
      await vi.waitFor(
        async () => {
          await sql.raw('select 1').execute(handle.readDb);
          expect(answered).toBeGreaterThan(0);
        },
        { timeout: 10_000 },
      );
      answered = 0;
      const theirs = new SQLite(file, { readonly: true });
      const readAll = async () => {
        for (const q of QUERIES) {
          const expected = theirs.prepare(q).all();
          const writer = (await sql.raw(q).execute(handle.db)).rows;
          const reader = (await sql.raw(q).execute(handle.readDb)).rows;
          expect(writer, q).toEqual(expected);
          // A blob crosses between threads as a Uint8Array, as it did before rows were arrays (none is read there).
          expect(reader, q).toEqual(
            expected.map((r) =>
              Object.fromEntries(Object.entries(r as object).map(([k, v]) => [k, Buffer.isBuffer(v) ? new Uint8Array(v) : v])),
            ),
          );
          expect(
            reader.map((r) => Object.keys(r as object)),
            q,
          ).toEqual(expected.map((r) => Object.keys(r as object)));
        }
      };
      await readAll();
      expect(answered).toBe(QUERIES.length);
      // The writer changes the schema: the read thread's statements, prepared before, answer the new columns.
      await sql.raw("alter table a add column w text default 'mpya'").execute(handle.db);
      await readAll();
      expect(answered).toBe(2 * QUERIES.length);
      theirs.close();
    } finally {
      await handle.close();
    }
  });
});

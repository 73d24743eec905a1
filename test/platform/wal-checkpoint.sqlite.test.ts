/**
 * SQLite's checkpoints run in a worker thread (server/src/db/wal-checkpoint.ts), never inside a
 * commit on the event loop. Under a steady stream of commits the WAL must still start over: the
 * writer pauses between two transactions so that a checkpoint can complete. Without the worker the
 * WAL grows with every commit (the server's connection never checkpoints); with SQLite's own
 * checkpoints it would grow to about 1,000 pages before starting over.
 */
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../server/src/db/sqlite.js';

const dir = mkdtempSync(path.join(tmpdir(), 'duka-wal-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = 4096;
const RESTART_PAGES = 64;

/**
 * Commits of 2 KiB rows numbered on from 0, 16 in flight at any time, until `upTo` rows are in;
 * answers the WAL's size after. One counter across calls: a second call goes on from the first.
 */
function commitStream(handle: ReturnType<typeof openSqlite>, file: string) {
  const body = Buffer.alloc(2048, 7);
  let next = 0;
  return async (upTo: number) => {
    const writer = async () => {
      while (next < upTo) {
        const n = next++;
        await handle.transact((trx) => sql`insert into rows (n, body) values (${n}, ${body})`.execute(trx));
      }
    };
    await Promise.all(Array.from({ length: 16 }, writer));
    return statSync(`${file}-wal`).size;
  };
}

describe('WAL checkpoints in a worker thread (SQLite)', () => {
  it('keeps the WAL near its restart size under a steady stream of commits, losing nothing', async () => {
    const file = path.join(dir, 'c.db');
    const handle = openSqlite(file, undefined, undefined, { everyMs: 5, restartPages: RESTART_PAGES });
    const auto = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db);
    expect(auto.rows[0]!.wal_autocheckpoint).toBe(0);
    await handle.transact((trx) => sql`create table rows (n integer primary key, body blob not null)`.execute(trx));

    // Two streams of 4,000 commits of 2 KiB rows, 16 in flight at any time, without a quiet
    // moment: about 2,000 pages of WAL each. The WAL file keeps its largest size once reached (it
    // starts over from its beginning), so the first stream also covers the worker's start; the
    // second must not grow it.
    const stream = commitStream(handle, file);
    const first = await stream(4000);
    const second = await stream(8000);
    const count = await sql<{ c: number }>`select count(*) as c from rows`.execute(handle.db);
    expect(count.rows[0]!.c).toBe(8000);
    // Left to grow, the WAL would gain about 8 MiB in the second stream.
    expect(second - first).toBeLessThan(RESTART_PAGES * PAGE * 4);
    // Still the worker's: had it died, the server's connection would be back on SQLite's own.
    const after = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db);
    expect(after.rows[0]!.wal_autocheckpoint).toBe(0);
    await handle.close();

    const cold = new SQLite(file, { readonly: true });
    expect(cold.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(cold.prepare('select count(*) as c from rows').get()).toEqual({ c: 8000 });
    cold.close();
  });

  it('keeps the WAL near its restart size while the read threads read without a pause (issue 53)', async () => {
    const file = path.join(dir, 'r.db');
    const handle = openSqlite(file, undefined, undefined, { everyMs: 5, restartPages: RESTART_PAGES }, { threads: 2 });
    await handle.transact((trx) => sql`create table rows (n integer primary key, body blob not null)`.execute(trx));
    // Readers on the pool's own connections, always one in a statement: a reader holding an old
    // snapshot stops a checkpoint from copying past it, and the WAL from starting over.
    let writing = true;
    let reads = 0;
    const reader = async () => {
      while (writing) {
        await sql`select count(*) as c, max(n) as m from rows`.execute(handle.readDb);
        reads++;
        // A read no worker takes yet (they are opening) runs on the main connection at once:
        // without a turn of the loop this would never let the writers, or the workers, in.
        await new Promise(setImmediate);
      }
    };
    const readers = Array.from({ length: 4 }, reader);
    const stream = commitStream(handle, file);
    const first = await stream(4000);
    const second = await stream(8000);
    writing = false;
    await Promise.all(readers);
    expect(reads).toBeGreaterThan(100);
    // Without the readers' pause the second stream grew the WAL by 18.5 MB. With it the WAL mostly
    // stays at its size, but a start-over is now and then missed (up to 1.9 MB of growth seen in 1
    // run of 5; the cause is not found yet): bounded at 4 MiB here, half of what no checkpoint gives.
    expect(second - first).toBeLessThan(4 * 1024 * 1024);
    const count = await sql<{ c: number }>`select count(*) as c from rows`.execute(handle.readDb);
    expect(count.rows[0]!.c).toBe(8000);
    await handle.close();
  });

  it("says so when the worker fails, and goes back to SQLite's own checkpoints", async () => {
    const file = path.join(dir, 'd.db');
    const failures: Error[] = [];
    const handle = openSqlite(file, undefined, undefined, { everyMs: 5, onError: (err) => failures.push(err) });
    // The worker opens the file on its own thread a few milliseconds from now, and only a file that
    // exists: moved away meanwhile, its open fails.
    renameSync(file, `${file}.away`);
    for (let i = 0; i < 200 && failures.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    renameSync(`${file}.away`, file);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toMatch(/could not open the database: unable to open database file \(SQLITE_CANTOPEN\)/);
    const auto = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db);
    expect(auto.rows[0]!.wal_autocheckpoint).toBe(1000);
    // The server goes on writing, and closes cleanly, with no worker to stop.
    await handle.transact((trx) => sql`create table rows (n integer primary key)`.execute(trx));
    await handle.transact((trx) => sql`insert into rows (n) values (1)`.execute(trx));
    const count = await sql<{ c: number }>`select count(*) as c from rows`.execute(handle.db);
    expect(count.rows[0]!.c).toBe(1);
    await handle.close();
  });
});

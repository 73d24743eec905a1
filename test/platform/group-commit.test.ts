/**
 * SQLite's group commit (server/src/db/group-commit.ts) lets the event loop turn while a long queue
 * drains: a probe scheduled behind 200 slow transactions runs long before the last of them, where
 * it used to wait for all 200 (one synchronous stretch: no socket read, no health probe, no
 * websocket ping until the queue was empty). And grouping still holds: each unit commits or rolls
 * back alone, every caller gets its own answer. The group commit is SQLite's own: this runs on an
 * SQLite file of its own in both projects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../server/src/db/sqlite.js';

const dir = mkdtempSync(path.join(tmpdir(), 'duka-group-commit-'));
const handle = openSqlite(path.join(dir, 'g.db'));
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A query that keeps the CPU busy for some milliseconds, as a slow statement does. */
const slowQuery = sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 20000) select count(*) as n from c`;

describe('group commit (SQLite)', () => {
  it('lets the event loop turn between transactions while 200 slow ones drain', async () => {
    await sql`create table if not exists slow (n integer not null)`.execute(handle.db);
    let done = 0;
    const units = Array.from({ length: 200 }, (_, i) =>
      handle
        .transact(async (trx) => {
          await slowQuery.execute(trx);
          await sql`insert into slow (n) values (${i})`.execute(trx);
          return i;
        })
        .then((v) => {
          done++;
          return v;
        }),
    );
    // What a socket read or a health probe is: a callback waiting for the loop's next turn.
    const seenByProbe = await new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    expect(await Promise.all(units)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(seenByProbe).toBeLessThan(200);
    const rows = await sql<{ c: number }>`select count(*) as c from slow`.execute(handle.db);
    expect(rows.rows[0]!.c).toBe(200);
  });

  it('still shares one commit among units that queue together, each rolled back alone when it fails', async () => {
    await sql`create table if not exists kept (n integer not null unique)`.execute(handle.db);
    const results = await Promise.allSettled(
      [1, 2, 2, 3].map((n) => handle.transact(async (trx) => sql`insert into kept (n) values (${n})`.execute(trx).then(() => n))),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const rows = await sql<{ n: number }>`select n from kept order by n`.execute(handle.db);
    expect(rows.rows.map((r) => r.n)).toEqual([1, 2, 3]);
  });
});

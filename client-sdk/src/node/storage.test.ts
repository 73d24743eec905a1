import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openLocalDb } from '../local/db.js';
import { sqliteFile } from './storage.js';

describe('the Node till storage: its idle checkpoint', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-till-storage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('folds the WAL into the file on a thread of its own, and ends with the till', async () => {
    const file = path.join(dir, 'till.db');
    const storage = sqliteFile(file);
    const db = openLocalDb(storage);
    await sql`create table t (id integer primary key, v blob)`.execute(db);
    // About 16 MB of WAL: a checkpoint long enough to see whether the event loop turns during it.
    for (let i = 0; i < 4; i++)
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000) insert into t (v) select randomblob(4096) from n`.execute(
        db,
      );
    const wal = `${file}-wal`;
    const full = statSync(wal).size;
    expect(full).toBeGreaterThan(10_000_000);

    let turns = 0;
    let on = true;
    const spin = () => {
      turns++;
      if (on) setImmediate(spin);
    };
    setImmediate(spin);
    await storage.whenIdle!(db);
    on = false;
    // On the till's own connection, the checkpoint would hold the loop until it had ended.
    expect(turns).toBeGreaterThan(0);

    // Every frame was copied: the next commit starts the WAL over instead of growing it.
    await sql`insert into t (v) values (randomblob(4096))`.execute(db);
    expect(statSync(wal).size).toBe(full);
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]!.n).toBe(4_001);

    await db.destroy();
    await storage.close!();
    // The worker's connection closed last: SQLite folded what was left and removed the WAL.
    expect(existsSync(wal)).toBe(false);
  });

  it('a till in memory has no checkpoint to run, and a storage never idle closes at once', async () => {
    expect(sqliteFile(':memory:').whenIdle).toBeUndefined();
    const storage = sqliteFile(path.join(dir, 'quiet.db'));
    await expect(storage.close!()).resolves.toBeUndefined();
  });
});

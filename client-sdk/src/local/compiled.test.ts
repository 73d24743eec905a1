import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compiledOnce } from './compiled.js';
import type { LocalDatabase } from './schema.js';

const open = () => {
  const db = new Kysely<LocalDatabase>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  return db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()
    .then(() => db);
};

describe('compiledOnce', () => {
  it('runs one compilation with each call’s values, by name, keeping the constants it was built with', async () => {
    const db = await open();
    let builds = 0;
    // Values named in the reverse of their column order, and a constant between them.
    const insert = compiledOnce(['value', 'key'], (x, v) => {
      builds++;
      return x.insertInto('meta').values([
        { key: v.key, value: v.value },
        { key: 'fixed', value: 'constant' },
      ]);
    });
    await insert(db, { value: '1', key: 'a' });
    await db.deleteFrom('meta').where('key', '=', 'fixed').execute();
    await db.transaction().execute((trx) => insert(trx, { value: '2', key: 'b' }));
    const rows = await db.selectFrom('meta').selectAll().orderBy('key').execute();
    expect(rows).toEqual([
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
      { key: 'fixed', value: 'constant' },
    ]);
    expect(builds).toBe(1);
    await db.destroy();
  });

  it('refuses a name that did not become a parameter', async () => {
    const db = await open();
    const read = compiledOnce(['key'], (x) => x.selectFrom('meta').select('value').where('key', '=', 'a'));
    await expect(read(db, { key: 'a' })).rejects.toThrow('key did not become parameters');
    await db.destroy();
  });
});

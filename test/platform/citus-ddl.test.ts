/**
 * docs/citus/distribute.sql, the DDL that distributes the schema on Citus (issue 36), against the
 * one list of tenant and global tables (table-scope.ts) and the migrated schema's own foreign keys:
 * every tenant table distributed once by its organisation, every reference table copied, nothing
 * else, and each table after the tables it points at (Citus refuses a foreign key to a table not yet
 * distributed or copied).
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_SCOPE } from '../../server/src/db/table-scope.js';
import { createTestDb, DIALECT, type TestDb } from '../setup/test-db.js';

const ddl = readFileSync(new URL('../../docs/citus/distribute.sql', import.meta.url), 'utf8');
const statements = [...ddl.matchAll(/^SELECT (create_distributed_table|create_reference_table)\('(\w+)'(.*)\);$/gm)].map((m) => ({
  call: m[1]!,
  table: m[2]!,
  rest: m[3]!,
}));
const scopes = Object.entries(TABLE_SCOPE);

describe('the Citus DDL in docs/citus/distribute.sql', () => {
  it('distributes every tenant table by its organisation, colocated with organisations, and copies the reference tables', () => {
    const distributed = statements.filter((s) => s.call === 'create_distributed_table');
    expect(distributed.map((s) => s.table).sort()).toEqual(
      scopes
        .filter(([, s]) => s.scope === 'tenant')
        .map(([t]) => t)
        .sort(),
    );
    for (const s of distributed) {
      expect(s.rest, s.table).toBe(s.table === 'organisations' ? ", 'id'" : ", 'org_id', colocate_with => 'organisations'");
    }
    expect(statements.filter((s) => s.call === 'create_reference_table').map((s) => s.table)).toEqual(
      scopes.filter(([, s]) => s.scope === 'global' && s.placement === 'reference').map(([t]) => t),
    );
    expect(new Set(statements.map((s) => s.table)).size).toBe(statements.length);
  });

  describe.runIf(DIALECT === 'postgres')('against the migrated schema', () => {
    let db: TestDb;
    beforeAll(async () => {
      db = await createTestDb();
    });
    afterAll(() => db?.drop());

    it('places each table after every table its foreign keys point at', async () => {
      const { rows } = await sql<{
        child: string;
        parent: string;
      }>`select conrelid::regclass::text as child, confrelid::regclass::text as parent
        from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace and conrelid <> confrelid`.execute(db.db);
      const at = new Map(statements.map((s, i) => [s.table, i]));
      const placed = rows.filter((r) => at.has(r.child));
      expect(placed.length).toBeGreaterThan(60);
      expect(placed.filter((r) => !at.has(r.parent) || at.get(r.parent)! > at.get(r.child)!)).toEqual([]);
    });
  });
});

/**
 * The tenant-scope check (issue 36) on statements built as the services build them: it must find
 * a tenant table read, joined, changed or inserted without its organisation, and accept each way
 * of naming it.
 */
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/database.js';
import { orgIdCheck } from '../../server/src/db/dialect.js';
import { TABLE_SCOPE } from '../../server/src/db/table-scope.js';
import { crossOrg, type ScopeFinding, TenantScopeCheck } from '../../server/src/db/tenant-scope-check.js';

function checked() {
  const found: ScopeFinding[] = [];
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    plugins: [new TenantScopeCheck((f) => found.push(f))],
  });
  return { db, found };
}

const ORG = 'org-1';

describe('the tenant-scope check', () => {
  it('accepts a statement that names its organisation, however it is written', async () => {
    const { db, found } = checked();
    await db.selectFrom('products').selectAll().where('org_id', '=', ORG).where('id', '=', 'p').execute();
    await db.selectFrom('products as p').select('p.id').where('p.org_id', 'in', [ORG]).execute();
    await db
      .selectFrom('transactions as t')
      .innerJoin('customers as c', (j) => j.onRef('c.org_id', '=', 't.org_id').onRef('c.id', '=', 't.customer_id'))
      .select('t.id')
      .where('t.org_id', '=', ORG)
      .execute();
    await db.updateTable('products').set({ name: 'x' }).where('org_id', '=', ORG).where('id', '=', 'p').execute();
    await db.deleteFrom('notes').where('org_id', '=', ORG).where('id', '=', 'n').execute();
    await db
      .insertInto('expenses')
      .values({ org_id: ORG } as never)
      .execute();
    await db.selectFrom('organisations').selectAll().where('id', '=', ORG).execute();
    // dialect.ts's orgIdCheck, in both its forms.
    for (const dialect of ['sqlite', 'postgres'] as const) {
      await db
        .selectFrom('products')
        .selectAll()
        .where(orgIdCheck(dialect, 'org_id', ORG))
        .where('id', 'in', ['p'])
        .execute();
    }
    await db.selectFrom('users').selectAll().where('id', '=', 'u').execute(); // global
    await db.selectFrom('addo_medicines').selectAll().execute(); // global
    expect(found).toEqual([]);
  });

  it('finds a read, a join, a change and an insert that do not', async () => {
    const { db, found } = checked();
    await db.selectFrom('products').selectAll().where('id', '=', 'p').execute();
    await db
      .selectFrom('transactions as t')
      .innerJoin('customers as c', 'c.id', 't.customer_id')
      .select('t.id')
      .where('t.org_id', '=', ORG)
      .execute();
    await db.updateTable('stores').set({ name: 'x' }).where('id', '=', 's').execute();
    await db.deleteFrom('note_tags').where('note_id', '=', 'n').execute();
    await db
      .insertInto('transaction_lines')
      .values({ id: 'l' } as never)
      .execute();
    await db
      .selectFrom('products')
      .select('id')
      .where('org_id', '=', ORG)
      .where('id', 'in', (eb) => eb.selectFrom('product_stock').select('product_id').where('store_id', '=', 's'))
      .execute();
    await sql`select count(*) from batches where store_id = ${'s'}`.execute(db);
    // orgIdCheck's form on another column names no organisation.
    await db
      .selectFrom('products')
      .selectAll()
      .where(orgIdCheck('sqlite', 'category_id', ORG))
      .execute();
    expect(found.map((f) => `${f.statement} ${f.table}`)).toEqual([
      'select products',
      'select customers',
      'update stores',
      'delete note_tags',
      'insert transaction_lines',
      'select product_stock',
      'raw batches',
      'select products',
    ]);
  });

  it('reports a read marked as crossing organisations by its reason, not as a fault', async () => {
    const { db, found } = checked();
    await db.selectFrom('organisations').select('id').modifyEnd(crossOrg('job scan')).execute();
    expect(found).toEqual([{ kind: 'cross-org', table: 'organisations', statement: 'select', reason: 'job scan' }]);
  });

  it('every table is placed, and a global table says why', () => {
    const globals = Object.entries(TABLE_SCOPE).filter(([, s]) => s.scope === 'global');
    expect(globals.map(([t]) => t).sort()).toEqual(
      [
        'addo_list_changes',
        'addo_list_state',
        'addo_medicines',
        'audit_log',
        'auth_counters',
        'idempotency_keys',
        'job_leases',
        'otps',
        'outbox',
        'plans',
        'platform_settings',
        'refresh_tokens',
        'users',
      ].sort(),
    );
    for (const [, s] of globals) expect(s.scope === 'global' && s.why.length).toBeGreaterThan(20);
  });
});

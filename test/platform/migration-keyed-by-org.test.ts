/**
 * Issue 36's migrations on a populated database: two shops' rows of every kind, made through the
 * API, are taken back to the schema before the issue (child tables without `org_id`, keys by id)
 * and migrated forward again. Every row of every child table must get its own parent's
 * organisation, every other row must come back as it was, and every key of a tenant table must
 * then lead with `org_id` (on PostgreSQL all of them; on SQLite the unique indexes and the child
 * tables' composite keys, see the migration).
 */
import { Migrator } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { databaseSnapshot, tenantRows } from '../setup/tenant-fixtures.js';
import { DIALECT } from '../setup/test-db.js';
import { TABLE_SCOPE } from '../../server/src/db/table-scope.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const CHILDREN: Array<[table: string, parentColumn: string, parent: string]> = [
  ['product_stock', 'store_id', 'stores'],
  ['transaction_lines', 'transaction_id', 'transactions'],
  ['transaction_line_batches', 'transaction_id', 'transactions'],
  ['credit_allocations', 'payment_id', 'credit_payments'],
  ['supplier_payment_allocations', 'payment_id', 'supplier_payments'],
  ['delivery_lines', 'delivery_id', 'deliveries'],
  ['note_tags', 'note_id', 'notes'],
  ['prescription_items', 'prescription_id', 'prescriptions'],
  ['event_deliveries', 'event_id', 'events'],
  ['sync_mutations', 'device_id', 'devices'],
];

describe('every tenant row named and keyed by its organisation (migrations 0030 and 0031)', () => {
  let t: TestApp;
  const owners: Session[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    for (const name of ['Duka la Amani', 'Famasi ya Baraka']) {
      const owner = await registerOwner(t, { shop: { name, business_type: 'pharmacy', region: 'dar-es-salaam', district: 'Ilala' } });
      const rows = await tenantRows(t, owner);
      // A payment on the credit tab and one to the supplier, which the fixtures leave unpaid.
      const paid = await t.request('POST', `/credits/customers/${rows.customer[0]}/payments`, {
        token: owner.token,
        body: { amount: 100, method: 'Cash' },
      });
      expect(paid.status, paid.text).toBe(200);
      const toSupplier = await t.request('POST', `/suppliers/${rows.supplier[0]}/pay`, {
        token: owner.token,
        body: { amount: 100, payment_method: 'Cash' },
      });
      expect(toSupplier.status, toSupplier.text).toBeLessThan(300);
      owners.push(owner);
    }
    await t.deps.afterAnswer.idle();
  }, 120_000);

  afterAll(() => t?.close());

  const childRows = async (table: string, parentColumn: string, parent: string) =>
    (
      await sql<{ org_id: string | null; parent_org: string }>`select c.org_id, p.org_id as parent_org from ${sql.table(table)} c
        join ${sql.table(parent)} p on p.id = ${sql.ref(`c.${parentColumn}`)}`.execute(t.db.db)
    ).rows;

  const bothOrganisations = async () => {
    for (const [table, parentColumn, parent] of CHILDREN) {
      const orgs = new Set((await childRows(table, parentColumn, parent)).map((r) => r.parent_org));
      expect(orgs.size, table).toBe(2);
    }
  };

  it('down to the schema before issue 36 and up again: every row as it was, every child row in its parent organisation', async () => {
    const migrator = new Migrator({ db: t.db.db, provider: { getMigrations: async () => migrations } });
    // Migrations after issue 36's come off first (0032's down drops the shifts it made): this test
    // is about 0030 and 0031, over the schema they left; the latest comes back at the end.
    const latest = await migrator.migrateTo('2026_11_26_0031_keys_led_by_org');
    expect(latest.error).toBeUndefined();
    // The fixtures' rows of every child table, in both organisations (a sale's lots, which live in
    // the ledger since 0036, back in their table of the time).
    await bothOrganisations();
    const before = await databaseSnapshot(t);
    const down = await migrator.migrateTo('2026_11_26_0029_agent_state');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => r.migrationName)).toEqual([
      '2026_11_26_0031_keys_led_by_org',
      '2026_11_26_0030_org_on_every_tenant_row',
    ]);
    const columns = await t.db.db.introspection.getTables();
    for (const [table] of CHILDREN) {
      expect(
        columns.find((c) => c.name === table)!.columns.map((c) => c.name),
        table,
      ).not.toContain('org_id');
    }

    const up = await migrator.migrateTo('2026_11_26_0031_keys_led_by_org');
    expect(up.results?.map((r) => r.migrationName)).toEqual(['2026_11_26_0030_org_on_every_tenant_row', '2026_11_26_0031_keys_led_by_org']);
    for (const [table, parentColumn, parent] of CHILDREN) {
      const rows = await childRows(table, parentColumn, parent);
      expect(rows.length, table).toBeGreaterThan(0);
      expect(
        rows.filter((r) => r.org_id !== r.parent_org),
        table,
      ).toEqual([]);
    }
    expect(await databaseSnapshot(t)).toEqual(before);
    expect(await migrateToLatest(t.db.db)).toEqual(Object.keys(migrations).filter((name) => name > '2026_11_26_0031_keys_led_by_org'));
  });

  const tenantTables = Object.entries(TABLE_SCOPE)
    .filter(([, scope]) => scope.scope === 'tenant' && scope.key === 'org_id')
    .map(([table]) => table);

  it('every unique key of a tenant table leads with org_id', async () => {
    const keys = await uniqueKeys();
    expect(keys.length).toBeGreaterThan(60);
    const notLed = keys.filter(
      (k) => tenantTables.includes(k.table) && k.columns[0] !== 'org_id' && !(DIALECT === 'sqlite' && k.primary && k.columns.length === 1),
    );
    expect(notLed).toEqual([]);
  });

  it.runIf(DIALECT === 'postgres')(
    'every foreign key between tenant tables is (org_id, x_id) → (org_id, id); none from a global table into one',
    async () => {
      const { rows } = await sql<{ table: string; parent: string; def: string }>`select conrelid::regclass::text as table,
        confrelid::regclass::text as parent, pg_get_constraintdef(oid) as def
      from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`.execute(t.db.db);
      const tenant = (table: string) => TABLE_SCOPE[table as keyof typeof TABLE_SCOPE]?.scope === 'tenant';
      const between = rows.filter((r) => tenant(r.table) && tenant(r.parent) && r.parent !== 'organisations');
      // 0031's 49, 0032's two (a shift's store, a count's shift), 0034's two (an account's store, a
      // payment's account), less the two of the sale lots 0036 folds into the ledger, 0040's one
      // (a pack's product), 0041's one (a sale's payment part) and 0044's three (a refund's sale, a
      // refund line's refund, a refund part's refund) and 0046's two (a stock-take line's and a
      // count's stock-take) and 0047's three (a purchase order line's and a received delivery's
      // order, and that delivery).
      expect(between.length).toBe(63);
      expect(between.filter((r) => !/^FOREIGN KEY \(org_id, \w+\) REFERENCES \w+\(org_id, id\)$/.test(r.def))).toEqual([]);
      expect(rows.filter((r) => !tenant(r.table) && tenant(r.parent))).toEqual([]);
    },
  );

  /** Every unique index (primary keys included) with its columns in order, from the catalogue. */
  async function uniqueKeys(): Promise<Array<{ table: string; name: string; primary: boolean; columns: string[] }>> {
    if (DIALECT === 'postgres') {
      const { rows } = await sql<{ table: string; name: string; primary: boolean; columns: string[] }>`select c.relname as table,
          i.relname as name, x.indisprimary as primary,
          array(select a.attname from unnest(x.indkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.oid and a.attnum = k.n order by k.o)::text[] as columns
        from pg_index x join pg_class c on c.oid = x.indrelid join pg_class i on i.oid = x.indexrelid
        where x.indisunique and c.relnamespace = 'public'::regnamespace`.execute(t.db.db);
      return rows;
    }
    const keys = [];
    for (const table of Object.keys(TABLE_SCOPE)) {
      const { rows: indexes } = await sql<{ name: string; unique: number; origin: string }>`select name, "unique", origin
        from pragma_index_list(${table})`.execute(t.db.db);
      for (const index of indexes.filter((i) => i.unique === 1)) {
        const { rows: cols } = await sql<{ name: string }>`select name from pragma_index_info(${index.name}) order by seqno`.execute(
          t.db.db,
        );
        keys.push({ table, name: index.name, primary: index.origin === 'pk', columns: cols.map((c) => c.name) });
      }
    }
    return keys;
  }
});

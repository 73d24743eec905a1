/**
 * Issue 36's first migration on a populated database: two shops' rows of every kind, made through
 * the API, are taken back to the previous schema (the child tables without `org_id`) and migrated
 * forward again; every row of every child table must get its own parent's organisation.
 */
import { Migrator } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { tenantRows } from '../setup/tenant-fixtures.js';
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

describe('every tenant row names its organisation (migration 0030)', () => {
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

  it('the fixtures wrote rows of every child table in both organisations', async () => {
    for (const [table, parentColumn, parent] of CHILDREN) {
      const orgs = new Set((await childRows(table, parentColumn, parent)).map((r) => r.parent_org));
      expect(orgs.size, table).toBe(2);
    }
  });

  it('down to the previous schema and up again, every row gets its parent organisation', async () => {
    const before = new Map<string, number>();
    for (const [table] of CHILDREN) {
      before.set(table, Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.db.db)).rows[0]!.n));
    }
    const migrator = new Migrator({ db: t.db.db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateDown();
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => r.migrationName)).toEqual(['2026_11_26_0030_org_on_every_tenant_row']);
    const columns = await t.db.db.introspection.getTables();
    for (const [table] of CHILDREN) {
      expect(
        columns.find((c) => c.name === table)!.columns.map((c) => c.name),
        table,
      ).not.toContain('org_id');
    }

    expect(await migrateToLatest(t.db.db)).toEqual(['2026_11_26_0030_org_on_every_tenant_row']);
    for (const [table, parentColumn, parent] of CHILDREN) {
      const rows = await childRows(table, parentColumn, parent);
      expect(rows.length, table).toBe(before.get(table));
      expect(
        rows.filter((r) => r.org_id !== r.parent_org),
        table,
      ).toEqual([]);
    }
  });
});

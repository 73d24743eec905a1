/**
 * Every row of a tenant table names its organisation (issue 36, first step): the ten child tables
 * that reached theirs only through a parent get `org_id`, filled from that parent. No index yet:
 * keys and indexes led by `org_id` come next, replacing today's rather than adding a write to every
 * row. On PostgreSQL the column is NOT NULL once filled; SQLite cannot change a column's
 * nullability without rebuilding the table, and every write names it. Frozen.
 */
import type { Kysely } from 'kysely';
import { setNotNull, sql, t } from './_helpers.js';

/** Child table → [its column naming the parent, the parent table]. */
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

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, parentColumn, parent] of CHILDREN) {
    await db.schema.alterTable(table).addColumn('org_id', t.id).execute();
    await sql`update ${sql.table(table)} set org_id = (select p.org_id from ${sql.table(parent)} p where p.id = ${sql.ref(`${table}.${parentColumn}`)})`.execute(
      db,
    );
    await setNotNull(db, table, 'org_id');
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of CHILDREN) {
    await db.schema.alterTable(table).dropColumn('org_id').execute();
  }
}

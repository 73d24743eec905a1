/**
 * Shifts and cash-up (issue 37). A shift is one cashier's stretch at a store's till, opened with a
 * float and closed with a count; `shift_counts` keeps, per payment method, what was expected and
 * counted at close. What moves money names the shift it happened in: a sale (`shift_id`), the
 * refund or void of a sale (`reversal_shift_id`: it may come in a later shift than the sale), an
 * expense and a credit payment. The owner's threshold for hearing of a shortfall is the
 * organisation's `shift_shortfall_alert` (cents; 0 = any shortfall).
 *
 * Keys lead with `org_id` like every tenant table since 0031; one open shift per cashier per store
 * is a partial unique index. Foreign keys are PostgreSQL's (addForeignKey), as 0031 left them. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, index, sql, t } from './_helpers.js';

/** What moves money: table → the column naming its shift. */
const ATTRIBUTED: Array<[table: string, column: string]> = [
  ['transactions', 'shift_id'],
  ['transactions', 'reversal_shift_id'],
  ['expenses', 'shift_id'],
  ['credit_payments', 'shift_id'],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shifts')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('cashier_id', t.id, (c) => c.notNull())
    .addColumn('device_id', t.id)
    .addColumn('till_number', t.text)
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('open'))
    .addColumn('opening_float', t.big, (c) => c.notNull())
    .addColumn('open_note', t.text)
    .addColumn('close_note', t.text)
    .addColumn('over_short', t.big)
    .addColumn('opened_at', t.big, (c) => c.notNull())
    .addColumn('closed_at', t.big)
    .addColumn('closed_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__shifts', ['org_id', 'id'])
    .execute();
  await sql
    .raw(`create unique index if not exists "uq__shifts__open" on "shifts" ("org_id", "store_id", "cashier_id") where status = 'open'`)
    .execute(db);
  await index(db, 'shifts', ['org_id', 'store_id', 'opened_at']);

  await db.schema
    .createTable('shift_counts')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('shift_id', t.id, (c) => c.notNull())
    .addColumn('method', t.text, (c) => c.notNull())
    .addColumn('expected', t.big, (c) => c.notNull())
    .addColumn('counted', t.big, (c) => c.notNull())
    .addColumn('over_short', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__shift_counts', ['org_id', 'shift_id', 'method'])
    .execute();

  for (const [table, column] of ATTRIBUTED) {
    await db.schema.alterTable(table).addColumn(column, t.id).execute();
    await index(db, table, ['org_id', column]);
  }
  await db.schema
    .alterTable('organisations')
    .addColumn('shift_shortfall_alert', t.big, (c) => c.notNull().defaultTo(0))
    .execute();

  await addForeignKey(db, 'shifts', 'fk__shifts__store_id', ['org_id', 'store_id'], 'stores', ['org_id', 'id']);
  await addForeignKey(db, 'shift_counts', 'fk__shift_counts__shift_id', ['org_id', 'shift_id'], 'shifts', ['org_id', 'id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organisations').dropColumn('shift_shortfall_alert').execute();
  for (const [table, column] of [...ATTRIBUTED].reverse()) {
    await sql.raw(`drop index "ix__${table}__org_id_${column}"`).execute(db);
    await db.schema.alterTable(table).dropColumn(column).execute();
  }
  await db.schema.dropTable('shift_counts').ifExists().execute();
  await db.schema.dropTable('shifts').ifExists().execute();
}

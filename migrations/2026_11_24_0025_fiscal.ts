/**
 * TRA VFD fiscal receipts (issue 21): each store's virtual fiscal device (its settings, TRA's
 * registration, the cached token and the gapless counters), one receipt per fiscalised sale with
 * its counters fixed and its signed XML kept byte for byte, and the daily Z reports. Products get
 * a TRA tax code and sales an optional customer TIN. Frozen.
 */
import type { CreateTableBuilder, Kysely } from 'kysely';
import { index, sql, t, uniqueIndex } from './_helpers.js';

/** Where a receipt or a Z report stands with TRA: both queues keep the same columns. */
const sendState = (table: CreateTableBuilder<string>) =>
  table
    .addColumn('status', sql`varchar(16)`, (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.big)
    .addColumn('last_error', t.text)
    .addColumn('ack_code', t.text)
    .addColumn('acknowledged_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull());

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').addColumn('tax_code', sql`varchar(1)`).execute();
  await db.schema.alterTable('transactions').addColumn('customer_tin', sql`varchar(9)`).execute();

  await db.schema
    .createTable('fiscal_devices')
    .addColumn('store_id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('enabled', t.flag, (c) => c.notNull().defaultTo(0))
    .addColumn('environment', sql`varchar(16)`, (c) => c.notNull())
    .addColumn('tin', sql`varchar(9)`, (c) => c.notNull())
    .addColumn('vrn', t.text)
    .addColumn('cert_key', t.text, (c) => c.notNull())
    .addColumn('cert_serial', t.text, (c) => c.notNull())
    .addColumn('certificate_enc', t.text)
    .addColumn('certificate_password_enc', t.text)
    // TRA's registration answer (EFDMSRESP): null until registered.
    .addColumn('registration', t.text)
    .addColumn('credentials_enc', t.text)
    .addColumn('registered_at', t.big)
    .addColumn('token_enc', t.text)
    .addColumn('token_expires_at', t.big)
    .addColumn('last_gc', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('last_dc', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('last_znum', sql`varchar(8)`)
    .addColumn('claimed_at', t.big)
    .addColumn('stuck_notified_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('fiscal_receipts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('transaction_id', t.id, (c) => c.notNull())
    .addColumn('gc', t.big, (c) => c.notNull())
    .addColumn('dc', t.int, (c) => c.notNull())
    .addColumn('znum', sql`varchar(8)`, (c) => c.notNull())
    .addColumn('issued_at', t.big, (c) => c.notNull())
    .addColumn('rctvnum', t.text, (c) => c.notNull())
    .addColumn('verify_url', t.text, (c) => c.notNull())
    // The signed request as first sent; every resend sends these bytes.
    .addColumn('body', t.text)
    // The receipt's totals (cents, per tax code and payment type) as JSON, for the day's Z report.
    .addColumn('figures', t.text)
    .$call(sendState)
    .execute();
  await uniqueIndex(db, 'fiscal_receipts', ['transaction_id']);
  await uniqueIndex(db, 'fiscal_receipts', ['store_id', 'gc']);
  await index(db, 'fiscal_receipts', ['store_id', 'status', 'gc']);
  await index(db, 'fiscal_receipts', ['store_id', 'znum']);

  await db.schema
    .createTable('fiscal_z_reports')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('znum', sql`varchar(8)`, (c) => c.notNull())
    .addColumn('figures', t.text, (c) => c.notNull())
    .addColumn('body', t.text, (c) => c.notNull())
    .$call(sendState)
    .execute();
  await uniqueIndex(db, 'fiscal_z_reports', ['store_id', 'znum']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fiscal_z_reports').execute();
  await db.schema.dropTable('fiscal_receipts').execute();
  await db.schema.dropTable('fiscal_devices').execute();
  await db.schema.alterTable('transactions').dropColumn('customer_tin').execute();
  await db.schema.alterTable('products').dropColumn('tax_code').execute();
}

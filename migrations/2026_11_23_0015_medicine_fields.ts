/**
 * Pharmacy, first slice: a product's medicine fields, the organisation's default expiry alert
 * window and a store's outlet type. Every column is nullable or has a default, so existing rows
 * stay as they were: no product is a medicine and no store an outlet until someone says so.
 * Frozen: the enumerations' literals are in the API schemas, not here.
 */
import type { Kysely } from 'kysely';
import { flag, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').addColumn('generic_name', t.text).execute();
  await db.schema.alterTable('products').addColumn('strength', t.text).execute();
  await db.schema.alterTable('products').addColumn('dosage_form', t.text).execute();
  await db.schema.alterTable('products').addColumn('schedule', t.text).execute();
  await db.schema.alterTable('products').addColumn('track_batches', t.flag, flag(0)).execute();
  await db.schema.alterTable('products').addColumn('expiry_alert_days', t.int).execute();
  await db.schema
    .alterTable('organisations')
    .addColumn('expiry_alert_days', t.int, (c) => c.notNull().defaultTo(90))
    .execute();
  await db.schema.alterTable('stores').addColumn('outlet_type', t.text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stores').dropColumn('outlet_type').execute();
  await db.schema.alterTable('organisations').dropColumn('expiry_alert_days').execute();
  for (const column of ['expiry_alert_days', 'track_batches', 'schedule', 'dosage_form', 'strength', 'generic_name']) {
    await db.schema.alterTable('products').dropColumn(column).execute();
  }
}

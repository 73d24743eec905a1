/**
 * Issue 37: a cash sale's tender and change, the server's receipt time of every sale beside the
 * till's own (`client_created_at`), and per device the till's time of the last sale it booked at
 * that time (a later sale dated well before it means the till's clock went back). Sales recorded
 * over REST before this got their `received_at` from `created_at`, which is when they arrived;
 * pushed ones keep null, since when they arrived was not kept. Frozen.
 */
import type { Kysely } from 'kysely';
import { sql, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('cash_tendered', t.big).execute();
  await db.schema.alterTable('transactions').addColumn('change_given', t.big).execute();
  await db.schema.alterTable('transactions').addColumn('received_at', t.big).execute();
  await sql`update transactions set received_at = created_at where source = 'online'`.execute(db);
  await db.schema.alterTable('devices').addColumn('last_sale_at', t.big).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('last_sale_at').execute();
  for (const column of ['received_at', 'change_given', 'cash_tendered'])
    await db.schema.alterTable('transactions').dropColumn(column).execute();
}

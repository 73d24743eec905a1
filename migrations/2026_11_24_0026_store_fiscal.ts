/**
 * `stores.fiscal`: whether the store issues TRA fiscal receipts, kept on the store row (and so in
 * the Store every till already pulls) so that a till shows the buyer's-TIN field only where it
 * means something. The fiscal settings set it in the transaction that switches the device on or
 * off. Frozen.
 */
import { type Kysely, sql } from 'kysely';
import { flag, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stores').addColumn('fiscal', t.flag, flag(0)).execute();
  await sql`update stores set fiscal = 1 where id in (select store_id from fiscal_devices where enabled = 1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stores').dropColumn('fiscal').execute();
}

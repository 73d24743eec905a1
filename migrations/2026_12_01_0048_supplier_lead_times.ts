/**
 * Issue 52, reorder suggestions: how many days a supplier takes to deliver after an order
 * (`suppliers.lead_time_days`, null: not said, the suggestions then take 7). A nullable column of
 * an existing table: no row changes, the partitioned-by-org layout is untouched (a column, no key).
 * `down` drops it. docs/inventory.md "Reorder suggestions". Frozen.
 */
import type { Kysely } from 'kysely';
import { t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('suppliers').addColumn('lead_time_days', t.int).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('suppliers').dropColumn('lead_time_days').execute();
}

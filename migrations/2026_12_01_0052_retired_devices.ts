/**
 * Issue 54, the back office's devices: an owner retires a till (a lost or replaced one). A
 * retired device's push and pull are refused (403 DEVICE_RETIRED) and its id cannot be
 * registered again. A nullable column of an existing table: no row changes, the
 * partitioned-by-org layout is untouched (a column, no key). `down` drops it. docs/sync.md
 * "Devices". Frozen.
 */
import type { Kysely } from 'kysely';
import { t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').addColumn('retired_at', t.big).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('retired_at').execute();
}

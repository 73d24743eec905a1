/**
 * Per organisation, the highest change-log version pruned: a pull cursor below it has lost changes
 * and must re-bootstrap. Frozen.
 */
import type { Kysely } from 'kysely';
import { t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('change_log_floor')
    .addColumn('org_id', t.id, (c) => c.primaryKey())
    .addColumn('version', t.big, (c) => c.notNull())
    .addColumn('pruned_at', t.big, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('change_log_floor').execute();
}

/**
 * The ADDO-permitted medicines list, platform-wide (no org_id): its entries, one row per change
 * (the list's history, numbered by version), and the one row holding the current version, which
 * each change bumps under a row lock so two admins never make the same version. A removed entry
 * keeps its row (`version_removed`), so what was permitted at any version can be shown.
 * `match_key` is generic name, strength and form without case or spaces; it is unique among the
 * entries still on the list. Times in epoch ms. Frozen.
 */
import type { Kysely } from 'kysely';
import { index, sql, t, uniqueIndex } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('addo_medicines')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('generic_name', t.text, (c) => c.notNull())
    .addColumn('strength', t.text, (c) => c.notNull())
    .addColumn('dosage_form', t.text, (c) => c.notNull())
    .addColumn('notes', t.text)
    .addColumn('match_key', t.text, (c) => c.notNull())
    .addColumn('version_added', t.int, (c) => c.notNull())
    .addColumn('version_updated', t.int, (c) => c.notNull())
    .addColumn('version_removed', t.int)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addColumn('removed_at', t.big)
    .execute();
  await db.schema
    .createIndex('uq__addo_medicines__match_key')
    .on('addo_medicines')
    .column('match_key')
    .unique()
    .where(sql.ref('version_removed'), 'is', null)
    .execute();
  await index(db, 'addo_medicines', ['version_removed', 'generic_name']);

  await db.schema
    .createTable('addo_list_changes')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('version', t.int, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('entry_id', t.id, (c) => c.notNull().references('addo_medicines.id'))
    .addColumn('entry', t.text, (c) => c.notNull())
    .addColumn('previous', t.text)
    .addColumn('user_id', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'addo_list_changes', ['version']);
  await index(db, 'addo_list_changes', ['entry_id', 'version']);

  await db.schema
    .createTable('addo_list_state')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('version', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', t.big)
    .execute();
  await db.insertInto('addo_list_state').values({ id: 'addo', version: 0, updated_at: null }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('addo_list_state').execute();
  await db.schema.dropTable('addo_list_changes').execute();
  await db.schema.dropTable('addo_medicines').execute();
}

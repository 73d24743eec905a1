/**
 * `platform_settings`: a few facts about the installation that every server instance on the
 * database must agree on, one row per name (issue 49). The first is `secret_fingerprint`: the
 * fingerprint of the JWT_SECRET the database's servers sign and seal with (never the secret), so
 * an instance started with another secret refuses to start instead of signing tills out at random.
 * Frozen.
 */
import type { Kysely } from 'kysely';
import { sql, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform_settings')
    .ifNotExists()
    .addColumn('name', sql`varchar(100)`, (c) => c.primaryKey())
    .addColumn('value', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform_settings').execute();
}

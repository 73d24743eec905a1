/**
 * Sign-in failure counts and locks (issue 18): one row per counted key (an address, an account
 * name, an address and account name together, or an address an account proved itself from), kept
 * in the database so that every server instance and a restart see the same locks, and so that they
 * follow the server's clock. Rows whose window and lock have passed are pruned. Frozen.
 */
import type { Kysely } from 'kysely';
import { index, sql, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auth_counters')
    .addColumn('key', sql`varchar(512)`, (c) => c.primaryKey())
    .addColumn('count', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('window_end', t.big, (c) => c.notNull())
    .addColumn('locked_until', t.big)
    .execute();
  await index(db, 'auth_counters', ['window_end']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auth_counters').execute();
}

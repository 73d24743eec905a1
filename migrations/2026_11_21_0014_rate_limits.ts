/**
 * Auth rate-limit counts shared by every server instance (rate-limiter-flexible's Postgres store,
 * its own column layout). SQLite keeps them in memory, but has the table too so both schemas
 * match. Frozen.
 */
import type { Kysely } from 'kysely';
import { sql } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', sql`varchar(255)`, (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}

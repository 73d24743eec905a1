/**
 * `job_leases`: who runs a background job, or one unit of a job's work (an event's delivery, a
 * scheduled report), when several server instances share one database (issue 34). One row per
 * name: the holder (an instance), a fencing token that grows by one at every take, and when the
 * lease was taken and lapses, both in the database's own clock (epoch ms). Rows are kept after a
 * release, so a name's token never goes back; unit rows long lapsed are pruned. Frozen.
 */
import type { Kysely } from 'kysely';
import { index, sql, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .ifNotExists()
    .addColumn('name', sql`varchar(200)`, (c) => c.primaryKey())
    .addColumn('holder', t.text, (c) => c.notNull())
    .addColumn('token', t.big, (c) => c.notNull())
    .addColumn('taken_at', t.big, (c) => c.notNull())
    .addColumn('expires_at', t.big, (c) => c.notNull())
    .execute();
  await db.schema.dropIndex('ix__job_leases__expires_at').ifExists().execute();
  await index(db, 'job_leases', ['expires_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}

/**
 * Report exports (each generated report file, kept for re-download) and scheduled reports (sent by
 * email on a timer; `next_run_at` is the claim token that lets exactly one server instance send a
 * due report). Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_exports')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id)
    .addColumn('report_type', t.text, (c) => c.notNull())
    .addColumn('format', t.text, (c) => c.notNull())
    .addColumn('storage_key', t.text, (c) => c.notNull())
    .addColumn('file_name', t.text, (c) => c.notNull())
    .addColumn('size_bytes', t.big, (c) => c.notNull())
    .addColumn('date_from', t.text)
    .addColumn('date_to', t.text)
    .addColumn('scheduled_report_id', t.id)
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'report_exports', ['org_id', 'created_at']);

  await db.schema
    .createTable('scheduled_reports')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id)
    .addColumn('report_type', t.text, (c) => c.notNull())
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('frequency', t.text, (c) => c.notNull())
    .addColumn('date_range_preset', t.text, (c) => c.notNull())
    .addColumn('recipients', t.text, (c) => c.notNull())
    .addColumn('is_enabled', t.flag, flag(1))
    .addColumn('next_run_at', t.big, (c) => c.notNull())
    .addColumn('last_run_at', t.big)
    .addColumn('last_export_id', t.id)
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'scheduled_reports', ['org_id', 'created_at']);
  await index(db, 'scheduled_reports', ['is_enabled', 'next_run_at']);

  // An outbox row being delivered is claimed first, so two instances never send it twice.
  await db.schema.alterTable('outbox').addColumn('claimed_at', t.big).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('claimed_at').execute();
  await db.schema.dropTable('scheduled_reports').execute();
  await db.schema.dropTable('report_exports').execute();
}

/** Tills (devices), the record of every mutation they pushed, and the conflicts owners review. Frozen. */
import type { Kysely } from 'kysely';
import { flag, index, t, uniqueIndex } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('devices')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('registered_by', t.id)
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('till_code', t.text, (c) => c.notNull())
    .addColumn('last_seq', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'devices', ['store_id', 'till_code']);

  await db.schema
    .createTable('sync_mutations')
    .addColumn('device_id', t.id, (c) => c.notNull().references('devices.id'))
    .addColumn('seq', t.big, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('type', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('error_code', t.text)
    .addColumn('error_message', t.text)
    .addColumn('result', t.text)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__sync_mutations', ['device_id', 'seq'])
    .execute();
  await uniqueIndex(db, 'sync_mutations', ['id']);
  await index(db, 'sync_mutations', ['created_at']);

  await db.schema
    .createTable('sync_conflicts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('device_id', t.id)
    .addColumn('mutation_id', t.id)
    .addColumn('transaction_id', t.id)
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('product_id', t.id)
    .addColumn('message', t.text, (c) => c.notNull())
    .addColumn('detail', t.text)
    .addColumn('resolved', t.flag, flag(0))
    .addColumn('resolution_note', t.text)
    .addColumn('resolved_by', t.id)
    .addColumn('resolved_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'sync_conflicts', ['org_id', 'resolved', 'created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['sync_conflicts', 'sync_mutations', 'devices']) await db.schema.dropTable(table).execute();
}

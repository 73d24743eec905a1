/**
 * Notebook notes (plain text plus the yjs document state, base64) with a tag index, uploaded
 * files, and store reviews. Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, index, t, uniqueIndex } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notes')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('content', t.text, (c) => c.notNull().defaultTo(''))
    .addColumn('tags', t.text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('ydoc', t.text, (c) => c.notNull())
    .addColumn('created_by', t.id)
    .addColumn('deleted_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'notes', ['store_id', 'updated_at']);

  await db.schema
    .createTable('note_tags')
    .addColumn('note_id', t.id, (c) => c.notNull().references('notes.id'))
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('tag', t.text, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__note_tags', ['note_id', 'tag'])
    .execute();
  await index(db, 'note_tags', ['store_id', 'tag']);

  await db.schema
    .createTable('uploads')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('key', t.text, (c) => c.notNull())
    .addColumn('file_name', t.text, (c) => c.notNull())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id)
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('size', t.big, (c) => c.notNull())
    .addColumn('content_type', t.text, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'uploads', ['key']);
  await uniqueIndex(db, 'uploads', ['file_name']);
  await index(db, 'uploads', ['org_id', 'created_at']);

  await db.schema
    .createTable('reviews')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('user_id', t.id)
    .addColumn('rating', t.int, (c) => c.notNull())
    .addColumn('title', t.text, (c) => c.notNull().defaultTo(''))
    .addColumn('body', t.text, (c) => c.notNull().defaultTo(''))
    .addColumn('trigger', t.text, (c) => c.notNull())
    .addColumn('is_published', t.flag, flag(1))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'reviews', ['is_published', 'created_at']);
  await index(db, 'reviews', ['org_id', 'created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['reviews', 'uploads', 'note_tags', 'notes']) {
    await db.schema.dropTable(table).execute();
  }
}

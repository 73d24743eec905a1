import type { Note } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso } from '../../lib/clock.js';
import type { NoteRow } from '../../db/tables/notebook.table.js';

/** A live (not deleted) note of the store; another store's or organisation's is not found. */
export function findNote(db: Kysely<Database>, orgId: string, storeId: string, id: string): Promise<NoteRow | undefined> {
  return storeNotes(db, orgId, storeId).selectAll().where('id', '=', id).executeTakeFirst();
}

/** The store's live notes. */
export function storeNotes(db: Kysely<Database>, orgId: string, storeId: string) {
  return db.selectFrom('notes').where('org_id', '=', orgId).where('store_id', '=', storeId).where('deleted_at', 'is', null);
}

/** A new note's columns but its times: it starts live, made and changed at the same instant. */
export type NewNote = Omit<NoteRow, 'deleted_at' | 'created_at' | 'updated_at'>;

const newNoteRow = (note: NewNote, now: number) => ({
  id: note.id,
  org_id: note.org_id,
  store_id: note.store_id,
  title: note.title,
  content: note.content,
  tags: note.tags,
  ydoc: note.ydoc,
  created_by: note.created_by,
  deleted_at: null,
  created_at: now,
  updated_at: now,
});

export function insertNote(db: Kysely<Database>, note: NewNote, now: number): Promise<NoteRow> {
  return db.insertInto('notes').values(newNoteRow(note, now)).returningAll().executeTakeFirstOrThrow();
}

/** Insert the note unless its id is taken (then nothing is inserted): two tills creating the same note make one row. */
export function insertNoteUnlessTaken(db: Kysely<Database>, note: NewNote, now: number) {
  return db
    .insertInto('notes')
    .values(newNoteRow(note, now))
    .onConflict((oc) => oc.columns(['org_id', 'id']).doNothing())
    .executeTakeFirst();
}

/** Replace a note's tag index rows. */
export async function writeTags(
  db: Kysely<Database>,
  note: { id: string; org_id: string; store_id: string },
  tags: string[],
): Promise<void> {
  await db.deleteFrom('note_tags').where('org_id', '=', note.org_id).where('note_id', '=', note.id).execute();
  if (tags.length)
    await db
      .insertInto('note_tags')
      .values(tags.map((t) => ({ org_id: note.org_id, note_id: note.id, store_id: note.store_id, tag: t.toLowerCase() })))
      .execute();
}

/** Trimmed, without duplicates (ignoring case), first spelling kept. */
export function cleanTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const tag of tags.map((t) => t.trim()).filter(Boolean)) {
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

export function toNote(row: NoteRow): Note {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    tags: JSON.parse(row.tags) as string[],
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

/** What a till holds of a note: the REST shape plus its store and the yjs state to merge offline edits into. */
export function toSyncNote(row: NoteRow): Record<string, unknown> {
  return { ...toNote(row), store_id: row.store_id, ydoc: row.ydoc };
}

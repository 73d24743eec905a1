/**
 * The notebook of the caller's active store. Every edit locks the note row (`lockNote`) and goes
 * through `applyEdit`, which merges into the stored yjs document and records the change for tills,
 * so a REST edit and a till's offline edit of the same note both survive, in whichever order they
 * arrive.
 */
import { newId } from '@duka/shared';
import type { CreateNoteInput, ListNotesQuery, Note, NoteList, PageMeta, UpdateNoteInput } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { containsText, forUpdate } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ConflictError, InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { cleanTags, findNote, insertNote, insertNoteUnlessTaken, storeNotes, toNote, writeTags } from '../notebook.queries.js';
import type { NoteRow } from '../../../db/tables/notebook.table.js';
import { docText, encodeDoc, loadDoc, mergeUpdate, setText } from './ydoc.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import { countedPage } from '../../../db/page.js';

/** One edit of a note: any of a whole new text, a yjs update (base64), a title, tags. */
export interface NoteEdit {
  text?: string;
  update?: string;
  title?: string;
  tags?: string[];
}

export const UNTITLED = 'Untitled note';

export async function listNotes(ctx: AuthedContext, q: ListNotesQuery): Promise<{ data: NoteList; meta: PageMeta }> {
  const { orgId, storeId } = requireStore(ctx);
  const tag = q.tag?.trim().toLowerCase();
  const base = storeNotes(ctx.db, orgId, storeId)
    .$if(!!tag, (qb) =>
      qb.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('note_tags')
            .select('note_tags.note_id')
            .whereRef('note_tags.note_id', '=', 'notes.id')
            .whereRef('note_tags.org_id', '=', 'notes.org_id')
            .where('note_tags.tag', '=', tag!),
        ),
      ),
    )
    .$if(!!q.search, (qb) =>
      qb.where((eb) => eb.or([containsText(ctx.dialect, 'notes.title', q.search!), containsText(ctx.dialect, 'notes.content', q.search!)])),
    );
  const ordered = base
    .selectAll()
    .$if(q.ordering === 'title', (qb) => qb.orderBy((eb) => eb.fn('lower', ['notes.title'])).orderBy('notes.updated_at', 'desc'))
    .$if(q.ordering === 'date', (qb) => qb.orderBy('notes.updated_at', 'asc'))
    .$if(q.ordering === '-date', (qb) => qb.orderBy('notes.updated_at', 'desc'))
    .orderBy('notes.id', q.ordering === 'date' ? 'asc' : 'desc');
  const { rows, total, meta } = await countedPage(base, ordered, q);
  return { data: { items: rows.map(toNote), count: total }, meta };
}

export async function getNote(ctx: AuthedContext, id: string): Promise<Note> {
  const { orgId, storeId } = requireStore(ctx);
  const row = await findNote(ctx.db, orgId, storeId, id);
  if (!row) throw new NotFoundError('note');
  return toNote(row);
}

export async function createNote(ctx: AuthedContext, input: CreateNoteInput): Promise<Note> {
  const { orgId, storeId } = requireStore(ctx);
  const doc = loadDoc(null);
  if (input.content) setText(doc, input.content);
  const tags = cleanTags(input.tags ?? []);
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const row = await insertNote(
      tx.db,
      {
        id: newId(),
        org_id: orgId,
        store_id: storeId,
        title: input.title,
        content: docText(doc),
        tags: JSON.stringify(tags),
        ydoc: encodeDoc(doc),
        created_by: ctx.actor.userId,
      },
      now,
    );
    await writeTags(tx.db, row, tags);
    noteChange(tx, orgId, { entity: 'note', id: row.id, storeId });
    await recordAudit(tx, { action: 'note.create', description: `Added note "${row.title}"`, entity: 'note', entityId: row.id });
    return toNote(row);
  });
}

/** The note `id` of the store, locked until the transaction ends. */
async function lockNote(tx: AuthedContext, orgId: string, storeId: string, id: string): Promise<NoteRow> {
  const row = await forUpdate(tx.dialect, storeNotes(tx.db, orgId, storeId).selectAll().where('id', '=', id)).executeTakeFirst();
  if (!row) throw new NotFoundError('note');
  return row;
}

/**
 * Apply `edit` to the locked note `row`: the yjs update is merged first, then a whole new text is
 * turned into the smallest edit against the merged text. Nothing changed, nothing written (unless
 * `created`: a note just inserted is always announced to tills).
 */
async function applyEdit(tx: AuthedContext, row: NoteRow, edit: NoteEdit, created = false): Promise<Note> {
  const doc = loadDoc(row.ydoc);
  if (edit.update) mergeUpdate(doc, edit.update);
  if (edit.text !== undefined) setText(doc, edit.text);
  const tags = edit.tags === undefined ? undefined : cleanTags(edit.tags);
  const next = {
    content: docText(doc),
    ydoc: encodeDoc(doc),
    title: edit.title ?? row.title,
    tags: tags === undefined ? row.tags : JSON.stringify(tags),
  };
  const changed = (Object.keys(next) as Array<keyof typeof next>).some((k) => next[k] !== row[k]);
  if (!changed && !created) return toNote(row);
  const updated = changed
    ? await tx.db
        .updateTable('notes')
        .set({ ...next, updated_at: tx.clock.now() })
        .where('org_id', '=', row.org_id)
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow()
    : row;
  if (tags !== undefined && updated.tags !== row.tags) await writeTags(tx.db, updated, tags);
  noteChange(tx, row.org_id, { entity: 'note', id: row.id, storeId: row.store_id });
  if (!created)
    await recordAudit(tx, { action: 'note.update', description: `Edited note "${updated.title}"`, entity: 'note', entityId: row.id });
  return toNote(updated);
}

/** REST PATCH: `content` is the whole new text; only its difference from the current text is applied. */
export async function updateNote(ctx: AuthedContext, id: string, input: UpdateNoteInput): Promise<Note> {
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) =>
    applyEdit(tx, await lockNote(tx, orgId, storeId, id), { text: input.content, title: input.title, tags: input.tags }),
  );
}

/**
 * A till's `note.update`: merge its yjs update into the note. A note the server does not have yet
 * (made offline) is inserted empty first, with the till's id, in the till's store; `on conflict do
 * nothing` makes two tills racing to create the same note both merge into one row. A deleted note
 * stays deleted.
 */
export async function applyNoteUpdate(
  ctx: AuthedContext,
  p: { note_id: string; update: string; title?: string; tags?: string[] },
): Promise<{ note: Note; created: boolean }> {
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const inserted = await insertNoteUnlessTaken(
      tx.db,
      {
        id: p.note_id,
        org_id: orgId,
        store_id: storeId,
        title: p.title ?? UNTITLED,
        content: '',
        tags: '[]',
        ydoc: encodeDoc(loadDoc(null)),
        created_by: ctx.actor.userId,
      },
      now,
    );
    const created = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    // A note id is its organisation's (issue 36): another organisation's note of that id is not looked for.
    const row = await forUpdate(
      tx.dialect,
      tx.db.selectFrom('notes').selectAll().where('org_id', '=', orgId).where('id', '=', p.note_id),
    ).executeTakeFirst();
    if (!row) throw new ConflictError('this note id is already in use');
    if (row.store_id !== storeId) throw new NotFoundError('note');
    if (row.deleted_at !== null) throw new InvalidStateError('this note was deleted');
    const note = await applyEdit(tx, row, { update: p.update, title: p.title, tags: p.tags }, created);
    if (created)
      await recordAudit(tx, {
        action: 'note.create',
        description: `Added note "${note.title}" from a till`,
        entity: 'note',
        entityId: note.id,
      });
    return { note, created };
  });
}

/** Deleted notes are kept as tombstones (without their text) so that a till's late edit cannot bring one back. */
export async function deleteNote(ctx: AuthedContext, id: string): Promise<Note> {
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const row = await lockNote(tx, orgId, storeId, id);
    const now = tx.clock.now();
    await tx.db
      .updateTable('notes')
      .set({ deleted_at: now, updated_at: now, content: '', ydoc: '' })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    await tx.db.deleteFrom('note_tags').where('org_id', '=', orgId).where('note_id', '=', id).execute();
    noteChange(tx, orgId, { entity: 'note', id, op: 'delete', storeId });
    await recordAudit(tx, { action: 'note.delete', description: `Deleted note "${row.title}"`, entity: 'note', entityId: id });
    return toNote(row);
  });
}

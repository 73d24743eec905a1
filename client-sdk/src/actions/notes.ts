/**
 * The store's notebook on the till. A note's body is a yjs document (`doc.getText(NOTE_TEXT)`), the
 * same as the server's: an edit here becomes a yjs update of only what changed (the shared
 * `textDiff`), queued as `note.update`, so the server merges it with edits made on the web or on
 * other tills meanwhile and nothing anyone typed is lost.
 */
import { CreateNoteInput, newId, type Note, NOTE_TEXT, textDiff, UpdateNoteInput } from '@duka/shared';
import * as Y from 'yjs';
import { fromBase64, toBase64 } from '../base64.js';
import { TillError } from '../errors.js';
import type { LocalTrx } from '../local/db.js';
import { enqueue } from '../queue.js';
import { parseData } from '../replica/apply.js';
import { type ActionCtx, invalid } from './context.js';

/** A note as the replica keeps it: the server's fields plus its yjs state. */
type StoredNote = Note & { ydoc?: string | null; store_id?: string };

const toNote = ({ ydoc: _y, store_id: _s, ...note }: StoredNote): Note => note;

function docOf(state: string | null | undefined): Y.Doc {
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, fromBase64(state));
  return doc;
}

/** Turn the document's text into `content` with one delete and one insert; the yjs update that did it. */
function edit(doc: Y.Doc, content: string): Uint8Array {
  const text = doc.getText(NOTE_TEXT);
  const before = Y.encodeStateVector(doc);
  const d = textDiff(text.toString(), content);
  doc.transact(() => {
    if (d.remove) text.delete(d.index, d.remove);
    if (d.insert) text.insert(d.index, d.insert);
  });
  return Y.encodeStateAsUpdate(doc, before);
}

async function save(trx: LocalTrx, note: StoredNote, doc: Y.Doc): Promise<void> {
  const data = JSON.stringify({ ...note, ydoc: toBase64(Y.encodeStateAsUpdate(doc)) });
  await trx
    .insertInto('rows')
    .values({ entity: 'note', id: note.id, data })
    .onConflict((oc) => oc.columns(['entity', 'id']).doUpdateSet({ data }))
    .execute();
}

export async function listNotes(db: ActionCtx['db'], o: { tag?: string } = {}): Promise<Note[]> {
  const rows = await db.selectFrom('rows').select('data').where('entity', '=', 'note').execute();
  const tag = o.tag?.toLowerCase();
  return rows
    .map((r) => parseData<StoredNote>(r.data))
    .filter((n) => !tag || n.tags.some((t) => t.toLowerCase() === tag))
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
    .map(toNote);
}

export async function getNote(db: ActionCtx['db'], id: string): Promise<Note | null> {
  const row = await db.selectFrom('rows').select('data').where('entity', '=', 'note').where('id', '=', id).executeTakeFirst();
  return row ? toNote(parseData<StoredNote>(row.data)) : null;
}

export async function createNote(ctx: ActionCtx, input: CreateNoteInput): Promise<Note> {
  const parsed = CreateNoteInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const { title, content, tags } = parsed.data;
  const at = new Date(ctx.now()).toISOString();
  const note: StoredNote = { id: newId(), title, content, tags, created_at: at, updated_at: at };
  const doc = new Y.Doc();
  const update = edit(doc, content);
  await ctx.db.transaction().execute(async (trx) => {
    await save(trx, note, doc);
    await enqueue(trx, 'note.update', { note_id: note.id, update: toBase64(update), title, tags }, ctx.now());
  });
  ctx.queued();
  return toNote(note);
}

export async function updateNote(ctx: ActionCtx, id: string, input: UpdateNoteInput): Promise<Note> {
  const parsed = UpdateNoteInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const changes = parsed.data;
  const note = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('rows').select('data').where('entity', '=', 'note').where('id', '=', id).executeTakeFirst();
    if (!row) throw new TillError('NOT_FOUND', 'note not found', 'id');
    const stored = parseData<StoredNote>(row.data);
    const doc = docOf(stored.ydoc);
    const update = changes.content === undefined ? new Uint8Array([0, 0]) : edit(doc, changes.content);
    const next: StoredNote = {
      ...stored,
      title: changes.title ?? stored.title,
      tags: changes.tags ?? stored.tags,
      content: doc.getText(NOTE_TEXT).toString(),
      updated_at: new Date(ctx.now()).toISOString(),
    };
    await save(trx, next, doc);
    await enqueue(
      trx,
      'note.update',
      {
        note_id: id,
        update: toBase64(update),
        ...(changes.title ? { title: changes.title } : {}),
        ...(changes.tags ? { tags: changes.tags } : {}),
      },
      ctx.now(),
    );
    return next;
  });
  ctx.queued();
  return toNote(note);
}

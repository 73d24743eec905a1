import type { Selectable } from 'kysely';

/** A store's note. `ydoc` is the yjs document state (base64); `content` its plain text; `tags` JSON. */
export interface NoteTable {
  id: string;
  org_id: string;
  store_id: string;
  title: string;
  content: string;
  tags: string;
  ydoc: string;
  created_by: string | null;
  /** Deleted notes stay as tombstones, so a till's late edit of one is refused, not resurrected. */
  deleted_at: number | null;
  created_at: number;
  updated_at: number;
}
export type NoteRow = Selectable<NoteTable>;

/** One row per tag of a note, lower-cased, for the `tag` filter. */
export interface NoteTagTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  note_id: string;
  store_id: string;
  tag: string;
}

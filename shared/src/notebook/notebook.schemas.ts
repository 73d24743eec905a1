/**
 * Notebook notes of a store. A note's body is a yjs document; the REST API shows and takes its
 * plain text, tills merge offline edits as yjs updates (mutation `note.update`).
 */
import { z } from 'zod';
import { Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';

/**
 * The name of the Y.Text that holds a note's body in its yjs document: `doc.getText(NOTE_TEXT)`.
 * Server and till must use the same name or their edits would land in different texts.
 */
export const NOTE_TEXT = 'content';

export const NOTE_MAX_CHARS = 100_000;
export const NOTE_MAX_TAGS = 20;

export const NoteTag = z.string().trim().min(1).max(40);
export const NoteTags = z
  .array(NoteTag)
  .max(NOTE_MAX_TAGS)
  .meta({ description: `At most ${NOTE_MAX_TAGS}; duplicates (ignoring case) are dropped, the first spelling is kept` });

export const Note = z
  .object({
    id: z.uuid(),
    title: z.string(),
    content: z.string().meta({ description: 'Plain text of the note (merged from every till that edited it)' }),
    tags: z.array(z.string()),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Note' });
export type Note = z.infer<typeof Note>;

export const CreateNoteInput = z
  .object({
    title: z.string().trim().min(1).max(200),
    content: z.string().max(NOTE_MAX_CHARS).default(''),
    tags: NoteTags.default([]),
  })
  .meta({ id: 'CreateNoteInput' });
export type CreateNoteInput = z.input<typeof CreateNoteInput>;

export const UpdateNoteInput = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    content: z
      .string()
      .max(NOTE_MAX_CHARS)
      .optional()
      .meta({ description: 'The whole new text; the server applies only the difference, so edits made elsewhere meanwhile are kept' }),
    tags: NoteTags.optional(),
  })
  .meta({ id: 'UpdateNoteInput' });
export type UpdateNoteInput = z.infer<typeof UpdateNoteInput>;

export const NoteOrdering = z
  .enum(['date', '-date', 'title'])
  .meta({ description: '`date`: last edited; default `-date` (newest edit first)' });

export const ListNotesQuery = PageQuery.extend({
  tag: NoteTag.optional().meta({ description: 'Notes carrying this tag (ignoring case)' }),
  search: z.string().trim().min(1).max(100).optional().meta({ description: 'In the title or the text, ignoring case' }),
  ordering: NoteOrdering.default('-date'),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .default(50)
    .transform((n) => Math.min(n, 100)),
});
export type ListNotesQuery = z.infer<typeof ListNotesQuery>;

export const NoteList = z
  .object({
    items: z.array(Note),
    count: z.int().meta({ description: 'Notes matching the filters (all pages)' }),
  })
  .meta({ id: 'NoteList' });
export type NoteList = z.infer<typeof NoteList>;

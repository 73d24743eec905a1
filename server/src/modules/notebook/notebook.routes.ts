import { CreateNoteInput, Envelope, IdParam, ListNotesQuery, Note, NoteList, PageMeta, UpdateNoteInput } from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Notebook'];
const note = jsonResponse(Envelope(Note), 'Note');

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/notebook',
  operationId: 'listNotes',
  description: 'The notebook of the active store.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Notes of the active store, filtered by tag or text; `count` is how many match',
  request: { query: ListNotesQuery },
  responses: { 200: jsonResponse(Envelope(NoteList, PageMeta), 'Notes') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/notebook',
  operationId: 'createNote',
  description: "Adds a note that syncs to the store's tills.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Add a note to the active store',
  request: { body: jsonBody(CreateNoteInput, { title: 'Orders for Monday', content: 'Sugar 20 bags, rice 10 bags', tags: ['orders'] }) },
  responses: { 200: note },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/notebook/{id}',
  operationId: 'getNote',
  description: 'One note with its text.',
  errors: ['INVALID_STATE'],
  tags,
  summary: "A note of the active store (another store's is not found)",
  request: { params: IdParam },
  responses: { 200: note },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/notebook/{id}',
  operationId: 'updateNote',
  description: 'Edits a note; concurrent edits on a till are merged, not overwritten.',
  errors: ['BUSINESS_RULE', 'INVALID_STATE'],
  tags,
  summary: 'Change title, tags or text; the text is merged (only what differs is applied), so edits made meanwhile on a till survive',
  request: { params: IdParam, body: jsonBody(UpdateNoteInput, { content: 'Sugar 25 bags, rice 10 bags', tags: ['orders', 'urgent'] }) },
  responses: { 200: note },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/notebook/{id}',
  operationId: 'deleteNote',
  description: 'Deletes a note (and from the tills at their next pull).',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Delete a note; answers the note as it was',
  request: { params: IdParam },
  responses: { 200: note },
});

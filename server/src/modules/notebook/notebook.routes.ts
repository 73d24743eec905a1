import { CreateNoteInput, Envelope, IdParam, ListNotesQuery, Note, NoteList, PageMeta, UpdateNoteInput } from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Notebook'];
const note = jsonResponse(Envelope(Note), 'Note');

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/notebook',
  tags,
  summary: "Notes of the active store, filtered by tag or text; `count` is how many match",
  request: { query: ListNotesQuery },
  responses: { 200: jsonResponse(Envelope(NoteList, PageMeta), 'Notes') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/notebook',
  tags,
  summary: 'Add a note to the active store',
  request: { body: jsonBody(CreateNoteInput) },
  responses: { 200: note },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/notebook/{id}',
  tags,
  summary: "A note of the active store (another store's is not found)",
  request: { params: IdParam },
  responses: { 200: note },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/notebook/{id}',
  tags,
  summary: 'Change title, tags or text; the text is merged (only what differs is applied), so edits made meanwhile on a till survive',
  request: { params: IdParam, body: jsonBody(UpdateNoteInput) },
  responses: { 200: note },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/notebook/{id}',
  tags,
  summary: 'Delete a note; answers the note as it was',
  request: { params: IdParam },
  responses: { 200: note },
});

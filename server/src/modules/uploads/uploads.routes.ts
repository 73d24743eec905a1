import { DeleteUploadInput, DeleteUploadQuery, Envelope, MessageEnvelope, UPLOAD_CONTENT_TYPES, UploadFileParam, UploadForm, UploadResult } from '@duka/shared';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Uploads'];
const binary = { schema: { type: 'string' as const, format: 'binary' } };

export const upload = defineRoute('bearer', {
  method: 'post',
  path: '/uploads',
  tags,
  summary: 'Upload a file (at most 10 MB: 413; type judged from the bytes: 415 unless JPEG, PNG, WebP, GIF or PDF)',
  request: { body: { required: true, content: { 'multipart/form-data': { schema: UploadForm } } } },
  responses: {
    201: jsonResponse(Envelope(UploadResult), 'Stored; `url` serves it'),
    413: jsonResponse(MessageEnvelope, 'Larger than 10 MB'),
    415: jsonResponse(MessageEnvelope, 'Not an allowed file type'),
  },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/uploads',
  tags,
  summary: "Delete a file of your organisation by its `key` (query or JSON body); another organisation's key is not found",
  request: { query: DeleteUploadQuery, body: { required: false, content: { 'application/json': { schema: DeleteUploadInput } } } },
  responses: { 200: jsonResponse(MessageEnvelope, 'Deleted') },
});

export const file = defineRoute('public', {
  method: 'get',
  path: '/uploads/files/{name}',
  tags,
  summary: 'An uploaded file, as stored, with its content type. Public: the name is random (128 bits), so only holders of the URL can fetch it (usable in <img>)',
  request: { params: UploadFileParam },
  responses: { 200: { description: 'The file', content: Object.fromEntries(UPLOAD_CONTENT_TYPES.map((t) => [t, binary])) } },
});

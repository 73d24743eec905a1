import { DeleteUploadInput, DeleteUploadQuery, Envelope, MessageEnvelope, UPLOAD_CONTENT_TYPES, UploadFileParam, UploadForm, UploadResult } from '@duka/shared';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Uploads'];
const binary = { schema: { type: 'string' as const, format: 'binary' } };

export const upload = defineRoute('bearer', {
  method: 'post',
  path: '/uploads',
  operationId: 'uploadFile',
  description: 'Stores a file of the organisation and answers its URL; product images and logos are public, receipts and attachments private.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Upload a file (at most 10 MB: 413; type judged from the bytes: 415 unless JPEG, PNG, WebP, GIF or PDF)',
  request: { body: { required: true, content: { 'multipart/form-data': { schema: UploadForm, example: { file: '(the PNG file)', kind: 'image', folder: 'products' } } } } },
  responses: { 201: jsonResponse(Envelope(UploadResult), 'Stored; `url` serves it') },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/uploads',
  operationId: 'deleteUpload',
  description: 'Deletes a file of the organisation.',
  errors: ['NOT_FOUND'],
  tags,
  summary: "Delete a file of your organisation by its `key` (query or JSON body); another organisation's key is not found",
  request: { query: DeleteUploadQuery, body: { required: false, content: { 'application/json': { schema: DeleteUploadInput, example: { key: 'org/3f2a6c1e/images/0b8f5f2e.png' } } } } },
  responses: { 200: jsonResponse(MessageEnvelope, 'Deleted') },
});

export const file = defineRoute('public', {
  method: 'get',
  path: '/uploads/files/{name}',
  operationId: 'getUploadedFile',
  description: 'Serves a public upload (product image, logo) by its random name, long-cached.',
  tags,
  summary: 'An uploaded file, as stored, with its content type. Public: the name is random (128 bits), so only holders of the URL can fetch it (usable in <img>)',
  request: { params: UploadFileParam },
  responses: { 200: { description: 'The file', content: Object.fromEntries(UPLOAD_CONTENT_TYPES.map((t) => [t, binary])) } },
});

import {
  DeleteUploadInput,
  DeleteUploadQuery,
  Envelope,
  MessageEnvelope,
  SignedLink,
  UPLOAD_CONTENT_TYPES,
  UploadFileParam,
  UploadFileQuery,
  UploadForm,
  UploadLinkQuery,
  UploadResult,
} from '@duka/shared';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Uploads'];
const binary = { schema: { type: 'string' as const, format: 'binary' } };

export const upload = defineRoute('bearer', {
  method: 'post',
  path: '/uploads',
  operationId: 'uploadFile',
  description:
    'Stores a file of the organisation and answers its URL; product images and logos are public, receipts and attachments private.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Upload a file (at most 10 MB: 413; type judged from the bytes: 415 unless JPEG, PNG, WebP, GIF or PDF)',
  request: {
    body: {
      required: true,
      content: { 'multipart/form-data': { schema: UploadForm, example: { file: '(the PNG file)', kind: 'image', folder: 'products' } } },
    },
  },
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
  request: {
    query: DeleteUploadQuery,
    body: {
      required: false,
      content: { 'application/json': { schema: DeleteUploadInput, example: { key: 'org/3f2a6c1e/images/0b8f5f2e.png' } } },
    },
  },
  responses: { 200: jsonResponse(MessageEnvelope, 'Deleted') },
});

export const link = defineRoute('bearer', {
  method: 'get',
  path: '/uploads/link',
  operationId: 'getUploadLink',
  description:
    "Makes a fresh signed link to a receipt or attachment of your organisation, for a browser that cannot send a token; another organisation's key is not found.",
  errors: ['NOT_FOUND'],
  tags,
  summary: 'A signed link to a file of your organisation, good for 15 minutes without a token (for a browser <img> or download)',
  request: { query: UploadLinkQuery },
  responses: { 200: jsonResponse(Envelope(SignedLink), 'The link') },
});

export const file = defineRoute('public', {
  method: 'get',
  path: '/uploads/files/{name}',
  operationId: 'getUploadedFile',
  description:
    'Serves an upload by its random name: images and logos to anyone, long-cached; receipts and attachments to a member of the organisation or through a signed link.',
  errors: ['UNAUTHENTICATED', 'LINK_EXPIRED', 'PASSWORD_CHANGE_REQUIRED', 'NOT_FOUND'],
  tags,
  summary:
    "An uploaded file, as stored. Images and logos are public and cached for a year. Receipts and attachments need a member's `Authorization: Bearer` token or a signed link's `expires` and `signature`: 401 otherwise (`LINK_EXPIRED` for an expired link), 404 to another organisation. PDFs come as attachments",
  request: { params: UploadFileParam, query: UploadFileQuery },
  responses: {
    200: { description: 'The file', content: Object.fromEntries(UPLOAD_CONTENT_TYPES.map((t) => [t, binary])) },
  },
});

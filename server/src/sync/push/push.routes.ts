import { Device, Envelope, IdParam, ListConflictsQuery, PagedEnvelope, PushRequest, PushResponse, RegisterDeviceInput, ResolveConflictInput, SyncConflict } from '@duka/shared';
import { syncProtocolHeader, unsupportedProtocolResponse } from '../protocol-version.js';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Sync'];

export const registerDevice = defineRoute('bearer', {
  method: 'post',
  path: '/sync/devices',
  tags,
  summary: 'Register a till; answers its till_code (re-registering answers the same)',
  request: { body: jsonBody(RegisterDeviceInput) },
  responses: { 200: jsonResponse(Envelope(Device), 'The device') },
});

export const push = defineRoute('bearer', {
  idempotency: 'own',
  method: 'post',
  path: '/sync/push',
  tags,
  summary: "Apply a device's queued mutations in seq order; committed durably before the answer",
  description:
    'Each mutation is applied, or answered as a duplicate with its recorded result, or rejected with an error code (the next ones still run). A gap in seq answers 409 with `meta.expected_seq`. At most 500 mutations or 5 MB (413 beyond).',
  request: { headers: syncProtocolHeader, body: jsonBody(PushRequest) },
  responses: { 200: jsonResponse(Envelope(PushResponse), 'One result per mutation'), ...unsupportedProtocolResponse },
});

export const listConflicts = defineRoute('owner', {
  method: 'get',
  path: '/sync/conflicts',
  tags,
  summary: 'Differences found when offline sales were reconciled',
  request: { query: ListConflictsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(SyncConflict), 'Conflicts, newest first') },
});

export const resolveConflict = defineRoute('owner', {
  method: 'patch',
  path: '/sync/conflicts/{id}',
  tags,
  summary: 'Mark a conflict resolved, with a note',
  request: { params: IdParam, body: jsonBody(ResolveConflictInput) },
  responses: { 200: jsonResponse(Envelope(SyncConflict), 'The resolved conflict') },
});

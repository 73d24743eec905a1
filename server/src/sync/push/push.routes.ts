import {
  Device,
  Envelope,
  IdParam,
  ListConflictsQuery,
  ListRefusalsQuery,
  PagedEnvelope,
  PushRequest,
  PushResponse,
  RegisterDeviceInput,
  ResolveConflictInput,
  SyncConflict,
  SyncRefusal,
  TillDevice,
} from '@duka/shared';
import { z } from 'zod';
import { syncProtocolHeader, unsupportedProtocolResponse } from '../protocol-version.js';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Sync'];

export const registerDevice = defineRoute('bearer', {
  method: 'post',
  path: '/sync/devices',
  operationId: 'registerDevice',
  description: 'Registers the till for the active store before its first push; the till code goes into its offline receipt numbers.',
  errors: ['CONFLICT', 'DEVICE_RETIRED', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Register a till; answers its till_code (re-registering answers the same, a retired one 403)',
  request: { body: jsonBody(RegisterDeviceInput, { device_id: '0b8f5f2e-2d9c-4f6e-a1c3-5e7d9b0a1c2d', name: 'Till 1 (counter)' }) },
  responses: { 200: jsonResponse(Envelope(Device), 'The device') },
});

export const push = defineRoute('bearer', {
  idempotency: 'own',
  method: 'post',
  path: '/sync/push',
  operationId: 'pushMutations',
  errors: ['CONFLICT', 'DEVICE_RETIRED', 'INVALID_STATE', 'NOT_FOUND', 'UNSUPPORTED_PROTOCOL'],
  tags,
  summary: "Apply a device's queued mutations in seq order; committed durably before the answer",
  description:
    'Each mutation is applied, or answered as a duplicate with its recorded result, or rejected with an error code (the next ones still run). A gap in seq answers 409 with `meta.expected_seq`. At most 500 mutations or 5 MB (413 beyond).',
  request: {
    headers: syncProtocolHeader,
    body: jsonBody(PushRequest, {
      device_id: '0b8f5f2e-2d9c-4f6e-a1c3-5e7d9b0a1c2d',
      mutations: [
        {
          id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
          seq: 1,
          type: 'sale.create',
          created_at: '2026-11-21T07:30:00.000Z',
          payload: {
            id: '9b2e5d1c-3a4f-4b6e-8c7d-2e1f0a9b8c7d',
            client_receipt_number: 'KRK-T1-000001',
            lines: [{ product_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f', qty: 1, unit_price: 3200 }],
            payment_method: 'Cash',
          },
        },
      ],
    }),
  },
  responses: { 200: jsonResponse(Envelope(PushResponse), 'One result per mutation'), ...unsupportedProtocolResponse },
});

export const listDevices = defineRoute('owner', {
  method: 'get',
  path: '/sync/devices',
  operationId: 'listDevices',
  description:
    'Every till of the organisation (all its stores), in the order they were registered, with its store, till code, when it last pushed and whether it was retired.',
  errors: ['NOT_FOUND'],
  tags,
  summary: "The organisation's tills",
  responses: { 200: jsonResponse(Envelope(z.array(TillDevice)), 'The tills') },
});

export const retireDevice = defineRoute('owner', {
  method: 'post',
  path: '/sync/devices/{id}/retire',
  operationId: 'retireDevice',
  description:
    'For a lost or replaced till: from now on its push and pull (when it names itself with `device_id`) are refused with 403 `DEVICE_RETIRED`, and its device id cannot be registered again. Retiring a retired till answers it unchanged.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Retire a till for good',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(TillDevice), 'The retired till') },
});

export const listRefusals = defineRoute('owner', {
  method: 'get',
  path: '/sync/refusals',
  operationId: 'listSyncRefusals',
  description:
    "The mutations the organisation's tills pushed in the last `days` days that the server refused (not booked, unlike a conflict: a product the shop does not have, a sale the server cannot apply), newest first, each with the till and the error the till was answered with.",
  errors: ['NOT_FOUND'],
  tags,
  summary: 'What the server refused of the tills’ pushes',
  request: { query: ListRefusalsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(SyncRefusal), 'Refused mutations, newest first') },
});

export const listConflicts = defineRoute('owner', {
  method: 'get',
  path: '/sync/conflicts',
  operationId: 'listSyncConflicts',
  description: 'What reconciling offline sales found (stale prices, oversold stock), to review.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Differences found when offline sales were reconciled',
  request: { query: ListConflictsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(SyncConflict), 'Conflicts, newest first') },
});

export const resolveConflict = defineRoute('owner', {
  method: 'patch',
  path: '/sync/conflicts/{id}',
  operationId: 'resolveSyncConflict',
  description: 'Marks a conflict resolved with a note; the sale itself is not changed.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Mark a conflict resolved, with a note',
  request: { params: IdParam, body: jsonBody(ResolveConflictInput, { note: 'price difference absorbed; shelf label fixed' }) },
  responses: { 200: jsonResponse(Envelope(SyncConflict), 'The resolved conflict') },
});

import {
  Batch,
  BatchDetail,
  BatchDetailQuery,
  CorrectBatchInput,
  Envelope,
  ExpiringPage,
  ExpiringQuery,
  IdParam,
  ListBatchesQuery,
  PagedEnvelope,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../../lib/route.js';

const tags = ['Pharmacy'];

export const listBatches = defineRoute('bearer', {
  method: 'get',
  path: '/pharmacy/batches',
  operationId: 'listBatches',
  description: 'Lots of medicine in the active store, with quantities, expiry and status.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The active store's batches (lots and their quarantine rows), paged, by expiry then lot",
  request: { query: ListBatchesQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Batch), 'Batches; meta has the page') },
});

export const getBatch = defineRoute('bearer', {
  method: 'get',
  path: '/pharmacy/batches/{id}',
  operationId: 'getBatch',
  description: 'One lot and what moved it.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'A batch of the active store with its newest ledger lines (what moved it, who, when)',
  request: { params: IdParam, query: BatchDetailQuery },
  responses: { 200: jsonResponse(Envelope(BatchDetail), 'The batch and its movements, newest first') },
});

export const correctBatch = defineRoute('bearer', {
  needs: { permission: 'pharmacy' },
  method: 'patch',
  path: '/pharmacy/batches/{id}',
  operationId: 'correctBatch',
  description: 'Corrects a lot as recorded; the change is kept in its ledger.',
  errors: ['DUPLICATE', 'INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary:
    "Correct a lot's number and/or expiry date, with a reason; its quarantine rows follow; 409 DUPLICATE when the lot number is already another batch of the product here",
  request: { params: IdParam, body: jsonBody(CorrectBatchInput, { expiry_date: '2027-06-30', reason: 'expiry misread at receiving' }) },
  responses: { 200: jsonResponse(Envelope(Batch), 'The corrected batch') },
});

export const listExpiring = defineRoute('bearer', {
  needs: { permission: 'pharmacy' },
  method: 'get',
  path: '/pharmacy/expiring',
  operationId: 'listExpiringStock',
  description: 'What to sell first or pull from the shelf, and what it is worth.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary:
    'Sellable stock expiring within `days` (default 90) and already past date, by expiry, with its value at cost and at price and totals over every page',
  request: { query: ExpiringQuery },
  responses: { 200: jsonResponse(ExpiringPage, 'A page of expiring lots; meta has the page and the totals') },
});

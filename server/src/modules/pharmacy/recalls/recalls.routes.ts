import {
  Batch,
  CreateRecallInput,
  DisposeBatchInput,
  Envelope,
  IdParam,
  ListQuarantineQuery,
  ListRecallsQuery,
  PagedEnvelope,
  QuarantineItem,
  Recall,
  RecallDetail,
  ReleaseQuarantineInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../../lib/route.js';

const tags = ['Pharmacy'];
const needs = { permission: 'pharmacy' } as const;

export const listQuarantine = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/quarantine',
  operationId: 'listQuarantine',
  description: 'Refunded units waiting for inspection before they can be sold again.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The active store's quarantine rows holding refunded units, oldest first, paged",
  request: { query: ListQuarantineQuery },
  responses: { 200: jsonResponse(PagedEnvelope(QuarantineItem), 'Quarantine rows; meta has the page') },
});

export const releaseQuarantine = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/pharmacy/quarantine/{id}/release',
  operationId: 'releaseQuarantine',
  errors: ['INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary: "After inspection, put a quarantine row's units back on their lot; stock rises",
  description:
    '409 `INVALID_STATE` when the lot is past expiry or its batch is recalled, expired or disposed of: dispose of the units instead.',
  request: { params: IdParam, body: jsonBody(ReleaseQuarantineInput, { note: 'seal intact, stored correctly' }) },
  responses: { 200: jsonResponse(Envelope(Batch), 'The lot the units went back to') },
});

export const disposeBatch = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/pharmacy/batches/{id}/dispose',
  operationId: 'disposeBatch',
  errors: ['INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary: "Destroy a quarantined, expired or recalled batch's units on record, with reason, method and witness",
  description:
    'All its units by default, or `qty` of them; the batch becomes `disposed` when its last units go. A sellable batch cannot be disposed of (409 `INVALID_STATE`).',
  request: {
    params: IdParam,
    body: jsonBody(DisposeBatchInput, {
      reason: 'expired',
      method: 'incinerated at the district facility',
      witness: 'Dr. Baraka Mollel',
      qty: 10,
    }),
  },
  responses: { 200: jsonResponse(Envelope(Batch), 'The batch after the disposal') },
});

export const createRecall = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/pharmacy/recalls',
  operationId: 'recallLot',
  errors: ['BUSINESS_RULE', 'INSUFFICIENT_STOCK', 'NOT_FOUND'],
  tags,
  summary: 'Recall a lot in every store of the organisation at once; the answer lists the sales that dispensed it',
  description:
    'Every batch of the lot (main and quarantine rows) that is sellable or quarantined becomes `recalled` in one transaction; stock falls by its sellable units; each store that holds or held the lot is notified; tills stop selling it on their next pull. 422 when no store holds or has held the lot.',
  request: {
    body: jsonBody(CreateRecallInput, {
      product_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f',
      lot_number: 'AMX-2311',
      reason: 'TMDA recall notice 2026/114',
    }),
  },
  responses: { 201: jsonResponse(Envelope(RecallDetail), 'The recall, the batches it moved per store and the sales of the lot') },
});

export const listRecalls = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/recalls',
  operationId: 'listRecalls',
  description: 'Recalls of the organisation.',
  errors: ['NOT_FOUND'],
  tags,
  summary: "The organisation's recalls, newest first, paged",
  request: { query: ListRecallsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Recall), 'Recalls; meta has the page') },
});

export const getRecall = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/pharmacy/recalls/{id}',
  operationId: 'getRecall',
  description: 'One recall and what it touched.',
  tags,
  summary: 'A recall with the batches it moved and the sales that dispensed its lot',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(RecallDetail), 'The recall') },
});

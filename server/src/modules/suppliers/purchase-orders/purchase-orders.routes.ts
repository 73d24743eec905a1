import {
  CreatePurchaseOrderInput,
  DraftOrdersFromSuggestions,
  DraftOrdersFromSuggestionsInput,
  Envelope,
  IdParam,
  ListPurchaseOrdersQuery,
  PagedEnvelope,
  PurchaseOrder,
  ReceivePurchaseOrderInput,
  SendPurchaseOrderInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../../lib/route.js';

const tags = ['Suppliers'];
const needs = { permission: 'suppliers' } as const;
const answer = {
  200: jsonResponse(Envelope(PurchaseOrder), 'The purchase order with, per line, what was ordered, received and is still owed'),
};
const example = '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f';

export const createPurchaseOrder = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/suppliers/purchase-orders',
  operationId: 'createPurchaseOrder',
  description:
    "Drafts an order to a supplier for the active store: one line per stocked product, in the product's unit or in whole packs, with the expected cost.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Draft a purchase order',
  request: {
    body: jsonBody(CreatePurchaseOrderInput, {
      supplier_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      lines: [{ product_id: example, pack_id: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e', qty: 10, unit_cost: 19200 }],
    }),
  },
  responses: answer,
});

export const listPurchaseOrders = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/suppliers/purchase-orders',
  operationId: 'listPurchaseOrders',
  description: "The active store's purchase orders, newest first, filtered by `status` and `supplier`.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Purchase orders of the active store, paged',
  request: { query: ListPurchaseOrdersQuery },
  responses: { 200: jsonResponse(PagedEnvelope(PurchaseOrder), 'Purchase orders; meta has the page') },
});

export const getPurchaseOrder = defineRoute('bearer', {
  needs,
  method: 'get',
  path: '/suppliers/purchase-orders/{id}',
  operationId: 'getPurchaseOrder',
  description: 'A purchase order: per line ordered, received and still owed, and the deliveries that received it.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'A purchase order of the active store',
  request: { params: IdParam },
  responses: answer,
});

export const sendPurchaseOrder = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/suppliers/purchase-orders/{id}/send',
  operationId: 'sendPurchaseOrder',
  description:
    "Marks a draft sent and puts a message naming the order and its lines in the outbox, in one transaction: by `channel` an SMS to the supplier's phone (the default, also without a body) or an email to its address. A supplier without that contact is 422 naming `supplier.phone` or `supplier.email`; an order not a draft is 409.",
  errors: ['BUSINESS_RULE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Send a purchase order to the supplier by SMS or email',
  request: {
    params: IdParam,
    body: { required: false, content: { 'application/json': { schema: SendPurchaseOrderInput, example: { channel: 'email' } } } },
  },
  responses: answer,
});

export const receivePurchaseOrder = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/suppliers/purchase-orders/{id}/receive',
  operationId: 'receivePurchaseOrder',
  description:
    'Records what came as a delivery against the order (stock in, cost prices and the supplier balance as any delivery) and adds it to what each line has received: `partly_received` until every line is in, then `received`. More than a line still owes is 409 naming the line.',
  errors: ['CONFLICT', 'INSUFFICIENT_STOCK', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Receive (part of) a purchase order',
  request: {
    params: IdParam,
    body: jsonBody(ReceivePurchaseOrderInput, { invoice_number: 'INV-2026-120', lines: [{ product_id: example, qty: 6 }] }),
  },
  responses: answer,
});

export const cancelPurchaseOrder = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/suppliers/purchase-orders/{id}/cancel',
  operationId: 'cancelPurchaseOrder',
  description:
    'Cancels a draft, sent or partly received order; what was received stays in stock and on its deliveries. Cancelling again answers the same; a received one is 409.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Cancel a purchase order',
  request: { params: IdParam },
  responses: answer,
});

export const draftOrdersFromSuggestions = defineRoute('bearer', {
  needs,
  method: 'post',
  path: '/suppliers/purchase-orders/from-suggestions',
  operationId: 'draftPurchaseOrdersFromSuggestions',
  description:
    "Turns a store's reorder suggestions (GET /inventory/reorder-suggestions, the same rule) into draft purchase orders in one transaction: one per supplier, each line the suggested quantity (whole packs of the product's largest pack where it has one) at the product's cost price. Products with no known supplier come back in `skipped`. Drafts count as on order in the suggestions, so calling again drafts nothing already drafted (docs/back-office.md).",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Draft purchase orders from the reorder suggestions',
  request: {
    body: jsonBody(DraftOrdersFromSuggestionsInput, { supplier_ids: ['7c9e6679-7425-40de-944b-e07fc1f90ae7'], cover_days: 14 }),
  },
  responses: { 200: jsonResponse(Envelope(DraftOrdersFromSuggestions), 'The drafts made, one per supplier, and the products skipped') },
});

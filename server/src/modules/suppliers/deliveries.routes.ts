import {
  CreateDeliveryInput,
  CreateSupplierDeliveryInput,
  Delivery,
  Envelope,
  IdParam,
  ListDeliveriesQuery,
  MessageEnvelope,
  PagedEnvelope,
  PageQuery,
  UpdateDeliveryInput,
} from '@duka/shared';
import { defineRoute, idempotencyHeader, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Suppliers'];
const delivery = jsonResponse(Envelope(Delivery), 'Delivery with its lines');
const paged = jsonResponse(PagedEnvelope(Delivery), "The active store's deliveries, newest delivery_date first; meta has the page");

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/deliveries',
  operationId: 'listDeliveries',
  description: 'Deliveries received by the active store, newest first.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Deliveries to the active store, filtered by `unpaid` and `supplier`, paged',
  request: { query: ListDeliveriesQuery },
  responses: { 200: paged },
});

export const create = defineRoute('bearer', {
  needs: { powers: ['mark_delivery_paid'] },
  method: 'post',
  path: '/suppliers/deliveries',
  operationId: 'createDelivery',
  description: 'Records a delivery to the active store; its lines raise stock and may update cost prices, in one transaction.',
  errors: ['IDEMPOTENCY_IN_FLIGHT', 'IDEMPOTENCY_MISMATCH', 'INSUFFICIENT_STOCK', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Record a delivery to the active store; created `delivered`, its lines are added to stock at once',
  request: {
    headers: idempotencyHeader,
    body: jsonBody(CreateDeliveryInput, {
      supplier_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      invoice_number: 'INV-2026-114',
      lines: [{ product_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f', qty: 20, unit_cost: 2750, update_cost: true }],
    }),
  },
  responses: { 200: delivery },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/deliveries/{id}',
  operationId: 'getDelivery',
  description: 'A delivery with its lines and payments.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'A delivery of the active store',
  request: { params: IdParam },
  responses: { 200: delivery },
});

export const patch = defineRoute('bearer', {
  needs: { powers: ['mark_delivery_paid'] },
  method: 'patch',
  path: '/suppliers/deliveries/{id}',
  operationId: 'updateDelivery',
  description: 'Changes a delivery; a status change moves stock in or out in one transaction.',
  errors: ['BUSINESS_RULE', 'INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary:
    'Update a delivery; becoming `delivered` adds its lines to stock once, `returned` (from delivered) takes them out (409 on a move the status set does not allow)',
  request: { params: IdParam, body: jsonBody(UpdateDeliveryInput, { status: 'returned', notes: 'wrong pack size' }) },
  responses: { 200: delivery },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/suppliers/deliveries/{id}',
  operationId: 'deleteDelivery',
  description: 'Deletes a delivery that never reached stock and was never paid.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Delete a delivery whose stock was never added and that has no payment (409 otherwise)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, '`success` true') },
});

export const listForSupplier = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/{id}/deliveries',
  operationId: 'listSupplierDeliveries',
  description: 'Deliveries from one supplier to the active store.',
  errors: ['INVALID_STATE'],
  tags,
  summary: "One supplier's deliveries to the active store, paged",
  request: { params: IdParam, query: PageQuery },
  responses: { 200: paged },
});

export const createForSupplier = defineRoute('bearer', {
  needs: { powers: ['mark_delivery_paid'] },
  method: 'post',
  path: '/suppliers/{id}/deliveries',
  operationId: 'createSupplierDelivery',
  description: 'Records a delivery from this supplier to the active store; its lines raise stock, in one transaction.',
  errors: ['IDEMPOTENCY_IN_FLIGHT', 'IDEMPOTENCY_MISMATCH', 'INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary: 'Record a delivery from this supplier to the active store',
  request: {
    params: IdParam,
    headers: idempotencyHeader,
    body: jsonBody(CreateSupplierDeliveryInput, {
      invoice_number: 'INV-2026-115',
      lines: [{ product_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f', qty: 12, unit_cost: 2750 }],
    }),
  },
  responses: { 200: delivery },
});

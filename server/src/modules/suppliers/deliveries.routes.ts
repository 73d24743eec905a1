import { CreateDeliveryInput, CreateSupplierDeliveryInput, Delivery, Envelope, IdParam, ListDeliveriesQuery, MessageEnvelope, PagedEnvelope, PageQuery, UpdateDeliveryInput } from '@duka/shared';
import { defineRoute, idempotencyHeader, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Suppliers'];
const delivery = jsonResponse(Envelope(Delivery), 'Delivery with its lines');
const paged = jsonResponse(PagedEnvelope(Delivery), "The active store's deliveries, newest delivery_date first; meta has the page");

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/deliveries',
  tags,
  summary: "Deliveries to the active store, filtered by `unpaid` and `supplier`, paged",
  request: { query: ListDeliveriesQuery },
  responses: { 200: paged },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/suppliers/deliveries',
  tags,
  summary: 'Record a delivery to the active store; created `delivered`, its lines are added to stock at once',
  request: { headers: idempotencyHeader, body: jsonBody(CreateDeliveryInput) },
  responses: { 200: delivery },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/deliveries/{id}',
  tags,
  summary: 'A delivery of the active store',
  request: { params: IdParam },
  responses: { 200: delivery },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/suppliers/deliveries/{id}',
  tags,
  summary: 'Update a delivery; becoming `delivered` adds its lines to stock once, `returned` (from delivered) takes them out (409 on a move the status set does not allow)',
  request: { params: IdParam, body: jsonBody(UpdateDeliveryInput) },
  responses: { 200: delivery },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/suppliers/deliveries/{id}',
  tags,
  summary: 'Delete a delivery whose stock was never added and that has no payment (409 otherwise)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, '`success` true') },
});

export const listForSupplier = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/{id}/deliveries',
  tags,
  summary: "One supplier's deliveries to the active store, paged",
  request: { params: IdParam, query: PageQuery },
  responses: { 200: paged },
});

export const createForSupplier = defineRoute('bearer', {
  method: 'post',
  path: '/suppliers/{id}/deliveries',
  tags,
  summary: 'Record a delivery from this supplier to the active store',
  request: { params: IdParam, headers: idempotencyHeader, body: jsonBody(CreateSupplierDeliveryInput) },
  responses: { 200: delivery },
});

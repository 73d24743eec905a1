import { CreateSupplierInput, Envelope, IdParam, ListSuppliersQuery, MessageEnvelope, PagedEnvelope, Supplier, SupplierStats, UpdateSupplierInput } from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Suppliers'];
const supplier = jsonResponse(Envelope(Supplier), 'Supplier with its outstanding balance');

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers',
  tags,
  summary: 'Suppliers of the organisation (deleted ones hidden), by name, paged',
  request: { query: ListSuppliersQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Supplier), 'Suppliers; meta has the page') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/suppliers',
  tags,
  summary: 'Add a supplier',
  request: { body: jsonBody(CreateSupplierInput) },
  responses: { 200: supplier },
});

export const stats = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/stats',
  tags,
  summary: 'Supplier figures of the organisation; "this month" in the organisation time zone',
  responses: { 200: jsonResponse(Envelope(SupplierStats), 'Stats') },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/{id}',
  tags,
  summary: 'A supplier with `outstanding_balance`',
  request: { params: IdParam },
  responses: { 200: supplier },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/suppliers/{id}',
  tags,
  summary: 'Update a supplier; `status` sets active, inactive or on_hold; `null` clears optional fields',
  request: { params: IdParam, body: jsonBody(UpdateSupplierInput) },
  responses: { 200: supplier },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/suppliers/{id}',
  tags,
  summary: 'Deactivate and hide a supplier (soft delete); its deliveries and payments stay',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, '`success` true') },
});

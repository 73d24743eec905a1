import {
  CreateSupplierInput,
  Envelope,
  IdParam,
  ListSuppliersQuery,
  MessageEnvelope,
  PagedEnvelope,
  Supplier,
  SupplierStats,
  UpdateSupplierInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Suppliers'];
const supplier = jsonResponse(Envelope(Supplier), 'Supplier with its outstanding balance');

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers',
  operationId: 'listSuppliers',
  description: 'Suppliers of the organisation with what is owed to each.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Suppliers of the organisation (deleted ones hidden), by name, paged',
  request: { query: ListSuppliersQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Supplier), 'Suppliers; meta has the page') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/suppliers',
  operationId: 'createSupplier',
  description: 'Adds a supplier to the organisation.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Add a supplier',
  request: {
    body: jsonBody(CreateSupplierInput, {
      name: 'Bakhresa Distributors',
      category: 'Food',
      rep: 'Mr. Ali',
      phone: '0222861000',
      payment_terms: 30,
    }),
  },
  responses: { 200: supplier },
});

export const stats = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/stats',
  operationId: 'getSupplierStats',
  description: 'Supplier counts, deliveries and payments this month, and what is owed.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Supplier figures of the organisation; "this month" in the organisation time zone',
  responses: { 200: jsonResponse(Envelope(SupplierStats), 'Stats') },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/{id}',
  operationId: 'getSupplier',
  description: 'A supplier with what is owed to them.',
  tags,
  summary: 'A supplier with `outstanding_balance`',
  request: { params: IdParam },
  responses: { 200: supplier },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/suppliers/{id}',
  operationId: 'updateSupplier',
  description: "Changes a supplier's details or status.",
  tags,
  summary: 'Update a supplier; `status` sets active, inactive or on_hold; `null` clears optional fields',
  request: { params: IdParam, body: jsonBody(UpdateSupplierInput, { status: 'on_hold', notes: 'late twice this month' }) },
  responses: { 200: supplier },
});

export const remove = defineRoute('bearer', {
  needs: { permission: 'suppliers' },
  method: 'delete',
  path: '/suppliers/{id}',
  operationId: 'deleteSupplier',
  description: 'Hides a supplier from lists; what was delivered and paid stays on record.',
  tags,
  summary: 'Deactivate and hide a supplier (soft delete); its deliveries and payments stay',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, '`success` true') },
});

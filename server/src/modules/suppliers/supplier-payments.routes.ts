import {
  Envelope,
  IdParam,
  ListSupplierPaymentsQuery,
  PagedEnvelope,
  PageQuery,
  RecordSupplierPaymentInput,
  SupplierPayment,
} from '@duka/shared';
import { defineRoute, idempotencyHeader, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Suppliers'];
const payment = jsonResponse(Envelope(SupplierPayment), 'The payment and the deliveries it paid');
const paged = jsonResponse(PagedEnvelope(SupplierPayment), 'Payments, newest first; meta has the page');
const retry =
  'Retry safely with an Idempotency-Key header: the same key and body replay the first answer; the same key with another body is 422.';

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/payments',
  operationId: 'listSupplierPayments',
  description: 'Payments made to suppliers from every store.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Payments to suppliers from every store of the organisation, paged',
  request: { query: ListSupplierPaymentsQuery },
  responses: { 200: paged },
});

export const payDelivery = defineRoute('owner', {
  method: 'post',
  path: '/suppliers/deliveries/{id}/pay',
  operationId: 'payDelivery',
  errors: ['IDEMPOTENCY_IN_FLIGHT', 'IDEMPOTENCY_MISMATCH', 'INVALID_STATE', 'OVERPAYMENT'],
  tags,
  summary: 'Pay against one delivery of the active store (422 OVERPAYMENT above what it still owes)',
  description: retry,
  request: {
    params: IdParam,
    headers: idempotencyHeader,
    body: jsonBody(RecordSupplierPaymentInput, { amount: 55000, payment_method: 'M-Pesa', reference: 'QK7H2M9X1P' }),
  },
  responses: { 200: payment },
});

export const listForSupplier = defineRoute('bearer', {
  method: 'get',
  path: '/suppliers/{id}/payments',
  operationId: 'listPaymentsToSupplier',
  description: 'Payments made to one supplier.',
  tags,
  summary: 'Payments to one supplier, paged',
  request: { params: IdParam, query: PageQuery },
  responses: { 200: paged },
});

export const paySupplier = defineRoute('owner', {
  method: 'post',
  path: '/suppliers/{id}/pay',
  operationId: 'paySupplier',
  errors: ['IDEMPOTENCY_IN_FLIGHT', 'IDEMPOTENCY_MISMATCH', 'INVALID_STATE', 'OVERPAYMENT'],
  tags,
  summary: "Pay against the supplier's outstanding balance, oldest owing delivery first (422 OVERPAYMENT above the balance)",
  description: retry,
  request: {
    params: IdParam,
    headers: idempotencyHeader,
    body: jsonBody(RecordSupplierPaymentInput, { amount: 120000, payment_method: 'Bank', reference: 'CRDB-55120' }),
  },
  responses: { 200: payment },
});

import {
  CreateSaleInput,
  Envelope,
  HourlyBucket,
  HourlyQuery,
  IdParam,
  ListTransactionsQuery,
  PagedEnvelope,
  PosSummary,
  ReasonInput,
  ReceiptInput,
  ReceiptResult,
  SummaryQuery,
  Transaction,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, idempotencyHeader, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Point of sale'];
export const createSale = defineRoute('bearer', {
  method: 'post',
  path: '/pos/sale',
  tags,
  summary: 'Record a sale: prices and stock come from the server; one transaction',
  description:
    'Lines of one product are merged. 409 INSUFFICIENT_STOCK writes nothing; a Credit sale needs a customer and respects credit_limit (422 CREDIT_LIMIT_EXCEEDED); a discount needs the discount permission (403). Retry safely with an Idempotency-Key header or a client-generated `id`.',
  request: { headers: idempotencyHeader, body: jsonBody(CreateSaleInput) },
  responses: { 201: jsonResponse(Envelope(Transaction), 'The committed sale') },
});

export const listTransactions = defineRoute('bearer', {
  method: 'get',
  path: '/pos/transactions',
  tags,
  summary: "The active store's transactions, newest first",
  request: { query: ListTransactionsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Transaction), 'Transactions; meta has the page') },
});

export const getTransaction = defineRoute('bearer', {
  method: 'get',
  path: '/pos/transactions/{id}',
  tags,
  summary: 'A transaction with its lines',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Transaction), 'Transaction') },
});

export const refund = defineRoute('bearer', {
  method: 'post',
  path: '/pos/transactions/{id}/refund',
  tags,
  summary: 'Refund a paid or credit sale (refund permission); restores stock',
  request: { params: IdParam, body: jsonBody(ReasonInput) },
  responses: { 200: jsonResponse(Envelope(Transaction), 'Transaction with status refunded') },
});

export const voidSale = defineRoute('bearer', {
  method: 'post',
  path: '/pos/transactions/{id}/void',
  tags,
  summary: 'Void a paid sale, or a credit sale with no payment yet; restores stock',
  request: { params: IdParam, body: jsonBody(ReasonInput) },
  responses: { 200: jsonResponse(Envelope(Transaction), 'Transaction with status void') },
});

export const receipt = defineRoute('bearer', {
  method: 'post',
  path: '/pos/transactions/{id}/receipt',
  tags,
  summary: 'Email the receipt, or text a short one by SMS',
  request: { params: IdParam, body: jsonBody(ReceiptInput) },
  responses: { 200: jsonResponse(Envelope(ReceiptResult), 'Sent, or kept in the outbox when no email service is configured') },
});

export const summary = defineRoute('bearer', {
  method: 'get',
  path: '/pos/summary',
  tags,
  summary: "The active store's totals between two local dates (default today)",
  request: { query: SummaryQuery },
  responses: { 200: jsonResponse(Envelope(PosSummary), 'Summary') },
});

export const hourly = defineRoute('bearer', {
  method: 'get',
  path: '/pos/summary/hourly',
  tags,
  summary: 'Sales by local hour for a day (default today)',
  request: { query: HourlyQuery },
  responses: { 200: jsonResponse(Envelope(z.array(HourlyBucket)), '24 buckets') },
});

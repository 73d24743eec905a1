import {
  CreateSaleInput,
  Envelope,
  Exchange,
  ExchangeInput,
  ReturnInput,
  ReturnResult,
  HourlyBucket,
  HourlyQuery,
  IdParam,
  ListTransactionsQuery,
  PagedEnvelope,
  PosSummary,
  RefundSaleInput,
  ReverseSaleInput,
  ReceiptInput,
  ReceiptResult,
  SummaryQuery,
  Transaction,
  VOID_WINDOW_MS,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, example, idempotencyHeader, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Point of sale'];
export const createSale = defineRoute('bearer', {
  needs: { permission: 'discount', when: 'giving a discount' },
  method: 'post',
  path: '/pos/sale',
  operationId: 'createSale',
  errors: [
    'BUSINESS_RULE',
    'CONFLICT',
    'CREDIT_LIMIT_EXCEEDED',
    'IDEMPOTENCY_IN_FLIGHT',
    'IDEMPOTENCY_MISMATCH',
    'INSUFFICIENT_STOCK',
    'INVALID_STATE',
    'NOT_FOUND',
    'NOT_PERMITTED_FOR_ADDO',
    'PRESCRIPTION_REQUIRED',
  ],
  tags,
  summary: 'Record a sale: prices and stock come from the server; one transaction',
  description:
    'Lines of one product are merged. 409 INSUFFICIENT_STOCK writes nothing; a Credit sale needs a customer and respects credit_limit (422 CREDIT_LIMIT_EXCEEDED). Retry safely with an Idempotency-Key header or a client-generated `id`.',
  request: {
    headers: idempotencyHeader,
    body: jsonBody(CreateSaleInput, {
      lines: [{ product_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f', qty: 2 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7H2M9X1P',
    }),
  },
  responses: { 201: jsonResponse(Envelope(Transaction), 'The committed sale') },
});

export const listTransactions = defineRoute('bearer', {
  method: 'get',
  path: '/pos/transactions',
  operationId: 'listSales',
  description: "The active store's sales, refunds and voids, newest first.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The active store's transactions, newest first",
  request: { query: ListTransactionsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Transaction), 'Transactions; meta has the page') },
});

export const getTransaction = defineRoute('bearer', {
  method: 'get',
  path: '/pos/transactions/{id}',
  operationId: 'getSale',
  description: 'One sale with its lines, payment and status.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'A transaction with its lines',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Transaction), 'Transaction') },
});

export const refund = defineRoute('bearer', {
  needs: { permission: 'refund' },
  method: 'post',
  path: '/pos/transactions/{id}/refund',
  operationId: 'refundSale',
  description:
    'Reverses a sale as a refund, restoring its stock (batch-tracked units go to quarantine), in one transaction. The money goes back out of a shift’s drawer: `shift_id` when given (an open shift of the store; a cashier’s own only, 403 for another’s, 409 for a closed one), else the caller’s open shift, else the sale’s own shift while it is open, else none (`reversal_shift_id` in the answer says which). With `lines`, only those quantities come back (0.25 kg of a 1.25 kg line; decimals for measured products): the money is the line’s share (docs/pos.md "Refunding part of a sale"), the sale stays paid or credit until all of it is refunded, and more than is left of a line is 409 naming it. Without `lines`, the whole sale (or all that is left of it). Retry safely with an Idempotency-Key header.',
  errors: ['INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary: 'Refund a paid or credit sale, or part of it; restores stock',
  request: {
    headers: idempotencyHeader,
    params: IdParam,
    body: jsonBody(RefundSaleInput, { reason: 'customer returned unopened' }),
  },
  responses: {
    200: jsonResponse(
      Envelope(Transaction),
      'Transaction: status refunded, or still paid or credit with refunded_total while partly refunded',
    ),
  },
});

export const voidSale = defineRoute('bearer', {
  needs: {
    permission: 'refund',
    when: `voiding another cashier’s sale or one older than ${VOID_WINDOW_MS / 60_000} minutes`,
    orManager: true,
  },
  method: 'post',
  path: '/pos/transactions/{id}/void',
  operationId: 'voidSale',
  description:
    'Cancels a sale made in error, restoring its stock, in one transaction. The money goes back out of a shift’s drawer: `shift_id` when given (an open shift of the store; a cashier’s own only, 403 for another’s, 409 for a closed one), else the caller’s open shift, else the sale’s own shift while it is open, else none (`reversal_shift_id` in the answer says which).',
  errors: ['INSUFFICIENT_STOCK', 'INVALID_STATE'],
  tags,
  summary: 'Void a paid sale, or a credit sale with no payment yet; restores stock',
  request: { params: IdParam, body: jsonBody(ReverseSaleInput, { reason: 'rang up the wrong product' }) },
  responses: { 200: jsonResponse(Envelope(Transaction), 'Transaction with status void') },
});

export const receipt = defineRoute('bearer', {
  method: 'post',
  path: '/pos/transactions/{id}/receipt',
  operationId: 'sendReceipt',
  description: "Sends the sale's receipt to the customer by email or SMS (an SMS uses the plan's allowance).",
  errors: ['INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Email the receipt, or text a short one by SMS',
  request: { params: IdParam, body: jsonBody(ReceiptInput, { phone: '0765432109' }) },
  responses: { 200: jsonResponse(Envelope(ReceiptResult), 'Sent, or kept in the outbox when no email service is configured') },
});

export const summary = defineRoute('bearer', {
  method: 'get',
  path: '/pos/summary',
  operationId: 'getSalesSummary',
  description: "The active store's takings: totals, counts and totals by payment method.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The active store's totals between two local dates (default today)",
  request: { query: SummaryQuery },
  responses: {
    200: jsonResponse(
      Envelope(PosSummary),
      'Summary',
      example({
        total_sales: 182500,
        transaction_count: 41,
        average_ticket: 4451.22,
        items_sold: 97,
        cash_total: 90000,
        mpeca_total: 61500,
        mpesa_total: 61500,
        tigo_pesa_total: 8000,
        airtel_money_total: 6000,
        bank_total: 0,
        credit_total: 17000,
        refund_count: 1,
        refund_total: 3200,
        date_from: '2026-11-21',
        date_to: '2026-11-21',
      }),
    ),
  },
});

export const hourly = defineRoute('bearer', {
  method: 'get',
  path: '/pos/summary/hourly',
  operationId: 'getHourlySales',
  description: "The active store's sales by hour of one local day.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Sales by local hour for a day (default today)',
  request: { query: HourlyQuery },
  responses: { 200: jsonResponse(Envelope(z.array(HourlyBucket)), '24 buckets') },
});

export const createExchange = defineRoute('bearer', {
  needs: { permission: 'refund' },
  method: 'post',
  path: '/pos/exchanges',
  operationId: 'createExchange',
  errors: [
    'BUSINESS_RULE',
    'CONFLICT',
    'CREDIT_LIMIT_EXCEEDED',
    'IDEMPOTENCY_IN_FLIGHT',
    'IDEMPOTENCY_MISMATCH',
    'INSUFFICIENT_STOCK',
    'INVALID_STATE',
    'NOT_FOUND',
  ],
  tags,
  summary: 'Exchange: items of a sale back, items out, the difference paid or given back; one transaction',
  description:
    'The items back are a refund of part of the sale (its rules, its 409 for more than is left); the items out a sale priced and stocked by the server, paid first by what came back, then by the difference (`payment_method` or `payments`, no Credit). When the items back are worth more, the difference goes out as that refund gives money back (`give_back` a method: by it first), or with `give_back: tab` pays off what the customer owes. docs/pos.md "Exchanges". Retry safely with an Idempotency-Key header.',
  request: {
    headers: idempotencyHeader,
    body: jsonBody(ExchangeInput, {
      transaction_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f',
      reason: 'wrong size',
      back: [{ product_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f', qty: 1 }],
      out: [{ product_id: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', qty: 1 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7H2M9X1P',
    }),
  },
  responses: { 201: jsonResponse(Envelope(Exchange), 'Both sides of the exchange and the difference') },
});

export const createReturn = defineRoute('bearer', {
  needs: { permission: 'refund' },
  method: 'post',
  path: '/pos/returns',
  operationId: 'createReturn',
  errors: ['IDEMPOTENCY_IN_FLIGHT', 'IDEMPOTENCY_MISMATCH', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Return goods without a receipt: refunded from the sale found, else at the current price; noted',
  description:
    'Each line is looked for among the store’s sales of the product between `date_from` and `date_to` (local days): the most recent with that much left to refund is refunded for it, at the price paid (a refund of part of that sale). With none, the goods come back on the shelf at the current price and the money is paid out of the drawer as an expense noted "Return without a receipt". One transaction; docs/pos.md "Returns without a receipt". Retry safely with an Idempotency-Key header.',
  request: {
    headers: idempotencyHeader,
    body: jsonBody(ReturnInput, {
      reason: 'no receipt, unopened',
      lines: [{ product_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f', qty: 1 }],
      date_from: '2026-11-20',
      date_to: '2026-11-27',
    }),
  },
  responses: { 201: jsonResponse(Envelope(ReturnResult), 'Each line, what it gave back and on what basis') },
});

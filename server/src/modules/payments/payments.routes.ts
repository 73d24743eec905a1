import {
  CallbackReceived,
  CollectionAccount,
  CreateCollectionAccountInput,
  CreatePaymentRequestInput,
  Envelope,
  IdParam,
  ListReceivedPaymentsQuery,
  PagedEnvelope,
  PaymentRequest,
  ReceivedPayment,
  ReceivedPaymentsCsvQuery,
  RetryPaymentRequestInput,
  UpdateCollectionAccountInput,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Payments'];
const one = jsonResponse(Envelope(CollectionAccount), 'The collection account (no secret: a hint and the callback URL)');

export const listAccounts = defineRoute('owner', {
  method: 'get',
  path: '/payments/collection-accounts',
  operationId: 'listCollectionAccounts',
  description: "The organisation's own mobile-money collection accounts, active and not, oldest first. Credentials are never answered.",
  tags,
  summary: 'Collection accounts',
  responses: { 200: jsonResponse(Envelope(z.array(CollectionAccount)), 'Collection accounts') },
});

export const createAccount = defineRoute('owner', {
  method: 'post',
  path: '/payments/collection-accounts',
  operationId: 'createCollectionAccount',
  description:
    "Adds an account the shop's customers pay into, with the provider's credentials (sealed, never answered). `store_id` null is every store's; a store's own account wins. One active account per store and one organisation-wide: a second is 409. Audited. Paste the answer's `callback_url` into the provider's dashboard.",
  errors: ['CONFLICT', 'NOT_FOUND'],
  tags,
  summary: 'Add a collection account (audited)',
  request: {
    body: jsonBody(CreateCollectionAccountInput, {
      provider: 'selcom',
      label: 'Selcom Kariakoo',
      credentials: { apiKey: 'SELCOM-KEY-1234', apiSecret: 'secret', vendor: 'TILL61000000' },
    }),
  },
  responses: { 201: one },
});

export const getAccount = defineRoute('owner', {
  method: 'get',
  path: '/payments/collection-accounts/{id}',
  operationId: 'getCollectionAccount',
  description: "One of the organisation's collection accounts; another organisation's id is 404.",
  errors: ['NOT_FOUND'],
  tags,
  summary: 'A collection account',
  request: { params: IdParam },
  responses: { 200: one },
});

export const updateAccount = defineRoute('owner', {
  method: 'patch',
  path: '/payments/collection-accounts/{id}',
  operationId: 'updateCollectionAccount',
  description:
    "Changes the label, test mode, active flag or the whole credential object (checked against the account's provider). Reactivating while another account is active for the same store is 409. Audited, without the credentials.",
  errors: ['CONFLICT', 'NOT_FOUND'],
  tags,
  summary: 'Change a collection account (audited)',
  request: { params: IdParam, body: jsonBody(UpdateCollectionAccountInput, { label: 'M-Pesa Lipa Kariakoo', test_mode: false }) },
  responses: { 200: one },
});

export const deactivateAccount = defineRoute('owner', {
  method: 'delete',
  path: '/payments/collection-accounts/{id}',
  operationId: 'deactivateCollectionAccount',
  description: 'Deactivates the account: its callback URL answers 404 from now on; the payments it received are kept. Audited.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Deactivate a collection account (audited)',
  request: { params: IdParam },
  responses: { 200: one },
});

export const rotateCallback = defineRoute('owner', {
  method: 'post',
  path: '/payments/collection-accounts/{id}/rotate-callback',
  operationId: 'rotateCollectionCallback',
  description:
    "A new secret in the account's callback URL: the old URL answers 404 at once, so paste the new one into the provider's dashboard. Audited.",
  errors: ['NOT_FOUND'],
  idempotency: 'none',
  tags,
  summary: 'Rotate the callback URL (audited)',
  request: { params: IdParam },
  responses: { 200: one },
});

export const listReceived = defineRoute('bearer', {
  method: 'get',
  path: '/payments/received',
  operationId: 'listReceivedPayments',
  needs: { permission: 'reports' },
  description: "What the providers reported paid into the active store's account and the organisation-wide account, newest first.",
  errors: ['FORBIDDEN', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Payments received, filtered and paged',
  request: { query: ListReceivedPaymentsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(ReceivedPayment), 'Received payments; meta has the page') },
});

export const receivedCsv = defineRoute('bearer', {
  method: 'get',
  path: '/payments/received.csv',
  operationId: 'exportReceivedPaymentsCsv',
  needs: { permission: 'reports' },
  description: 'The same payments as GET /payments/received, oldest first, as CSV (amount with 2 decimals; local date and time).',
  errors: ['FORBIDDEN', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Payments received as CSV',
  request: { query: ReceivedPaymentsCsvQuery },
  responses: {
    200: {
      description: 'The payments as CSV',
      headers: { 'Content-Disposition': { required: true, description: 'attachment; filename="…"', schema: { type: 'string' as const } } },
      content: { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } },
    },
  },
});

export const callback = defineRoute('public', {
  method: 'post',
  path: '/payments/callbacks/{id}',
  operationId: 'receiveCollectionCallback',
  description:
    "Stores the payment the provider reports, once per provider reference (a repeat answers 200 and changes nothing). The URL's `token` is the account's credential: a wrong or old token, or an unknown or inactive account, is 404 and stores nothing; a Selcom webhook whose signature fails the account's secret is 401; an amount that is not a whole positive number is 400 naming `amount`.",
  errors: ['NOT_FOUND', 'UNAUTHENTICATED'],
  tags,
  summary: "A provider's payment callback into a shop's collection account (the URL from the account)",
  request: { params: IdParam, query: z.object({ token: z.string().max(200).optional() }) },
  responses: { 200: jsonResponse(Envelope(CallbackReceived), 'Recorded (or already recorded)') },
});

const request = jsonResponse(Envelope(PaymentRequest), 'The payment request as it stands (`sale` once paid)');
/** What asking for a sale's payment can answer beyond the sale's own refusals. */
const SALE_REFUSALS = [
  'BUSINESS_RULE',
  'CONFLICT',
  'INSUFFICIENT_STOCK',
  'INVALID_STATE',
  'NOT_FOUND',
  'NOT_PERMITTED_FOR_ADDO',
  'PRESCRIPTION_REQUIRED',
] as const;

export const createRequest = defineRoute('bearer', {
  needs: { permission: 'discount', when: 'giving a discount' },
  idempotency: 'none',
  method: 'post',
  path: '/payments/requests',
  operationId: 'createPaymentRequest',
  description:
    "Asks the customer's phone for a sale's payment through the store's collection account (its own, else the organisation's): the sale is priced and checked as POST /pos/sale does (the same 4xx, fields under `sale.`), its stock held and no receipt number taken; the sale is booked when the provider says paid. A push the provider refuses answers `failed`; one it does not answer stays `awaiting_payment` until its callback, status query or `expires_at`. The sale's `id` is the request's: the same body again answers the request as it stands (200); another body, or a sale already recorded with the id, is 409. No active collection account is 409 with a message starting \"no mobile-money collection account\": take the SMS reference instead.",
  errors: SALE_REFUSALS,
  tags,
  summary: "Ask the customer's phone for a sale's payment (push at checkout)",
  request: {
    body: jsonBody(CreatePaymentRequestInput, {
      sale: {
        id: '0b6f1c2e-7d3a-4f5e-9a8b-1c2d3e4f5a6b',
        lines: [{ product_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f', qty: 2 }],
        payment_method: 'M-Pesa',
      },
      phone: '0754 123 456',
    }),
  },
  responses: { 200: request, 201: request },
});

export const getRequest = defineRoute('bearer', {
  method: 'get',
  path: '/payments/requests/{id}',
  operationId: 'getPaymentRequest',
  description:
    "A payment request of the active store, with its sale once paid: what a till that was offline while waiting reads on reconnecting. Another store's or organisation's id is 404.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'A payment request',
  request: { params: IdParam },
  responses: { 200: request },
});

export const cancelRequest = defineRoute('bearer', {
  method: 'post',
  path: '/payments/requests/{id}/cancel',
  operationId: 'cancelPaymentRequest',
  description:
    'Stops waiting: the request is `cancelled` and its stock comes back, in one transaction. Already cancelled, failed or expired (nothing held), it is answered as it is; paid, 409 (refund the sale instead). To take cash instead, cancel, then POST /pos/sale with the same sale id.',
  errors: ['CONFLICT', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Cancel a payment request',
  request: { params: IdParam },
  responses: { 200: request },
});

export const retryRequest = defineRoute('bearer', {
  needs: { permission: 'discount', when: 'the sale gives a discount' },
  idempotency: 'none',
  method: 'post',
  path: '/payments/requests/{id}/retry',
  operationId: 'retryPaymentRequest',
  description:
    'Asks again after a failed, expired or cancelled push, to the same phone and wallet unless given: the sale is priced and checked again, its stock held again, and the new attempt pushed with reference `<id>.<attempt>`; a payment for an older attempt is never applied to it. Still waiting or paid is 409.',
  errors: SALE_REFUSALS,
  tags,
  summary: 'Ask the customer again',
  request: {
    params: IdParam,
    body: {
      required: false,
      content: { 'application/json': { schema: RetryPaymentRequestInput, example: { phone: '0754 123 456', network: 'mpesa' } } },
    },
  },
  responses: { 200: request },
});

/** Payment requests: a push to the customer's phone at checkout, its sale booked when paid. */
import { CreatePaymentRequestInput, Envelope, IdParam, PaymentRequest, RetryPaymentRequestInput } from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../../lib/route.js';

const tags = ['Payments'];
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

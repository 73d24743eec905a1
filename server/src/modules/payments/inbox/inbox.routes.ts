/**
 * The received-payments inbox: what the providers report into the shop's accounts (their callbacks),
 * listed and exported, and the owner's reconciliation of mobile-money sales against it.
 */
import {
  CallbackReceived,
  Envelope,
  IdParam,
  ListReceivedPaymentsQuery,
  PagedEnvelope,
  PaymentReconciliation,
  ReceivedPayment,
  ReceivedPaymentsCsvQuery,
  ReconciliationQuery,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonResponse } from '../../../lib/route.js';

const tags = ['Payments'];

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

export const reconciliation = defineRoute('bearer', {
  method: 'get',
  path: '/payments/reconciliation',
  operationId: 'getPaymentReconciliation',
  needs: { permission: 'reports' },
  description:
    "The active store's mobile money for a local day (`date`), a shift (`shift_id`), or a shift's part of a day (both): per wallet, what the standing sales expected (verified, unverified, unmatched, unchecked) against what the provider confirmed (payments matched to those sales plus the store's own account's unclaimed payments), and the difference; the unclaimed payments (the organisation-wide account's too, flagged and counted in no store), the sales to check, and the refunded or void ones apart. Neither date nor shift_id is 400 naming `date`; another store's or organisation's shift is 404.",
  errors: ['FORBIDDEN', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "Mobile-money reconciliation: a day's or a shift's wallets against what the providers confirmed",
  request: { query: ReconciliationQuery },
  responses: { 200: jsonResponse(Envelope(PaymentReconciliation), 'The reconciliation, amounts in TZS') },
});

export const reconciliationCsv = defineRoute('bearer', {
  method: 'get',
  path: '/payments/reconciliation.csv',
  operationId: 'exportPaymentReconciliationCsv',
  needs: { permission: 'reports' },
  description:
    'The same reconciliation as CSV: a row per mobile-money sale of the period (`record` sale, `check` its verification or unchecked), then a row per payment (`record` payment, `check` matched or unclaimed); amounts with 2 decimals, local date and time.',
  errors: ['FORBIDDEN', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Mobile-money reconciliation as CSV',
  request: { query: ReconciliationQuery },
  responses: {
    200: {
      description: 'The reconciliation as CSV',
      headers: { 'Content-Disposition': { required: true, description: 'attachment; filename="…"', schema: { type: 'string' as const } } },
      content: { 'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) } },
    },
  },
});

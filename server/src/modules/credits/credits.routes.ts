import {
  AddCreditNoteInput,
  CreditMessage,
  CreditNote,
  CreditPayment,
  CreditProfile,
  CreditTab,
  CustomerIdParam,
  Envelope,
  ListCreditTabsQuery,
  LogCreditMessageInput,
  PagedEnvelope,
  RecordCreditPaymentInput,
  TabIdParam,
  WriteOffInput,
} from '@duka/shared';
import { defineRoute, idempotencyHeader, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Credits'];
export const list = defineRoute('bearer', {
  method: 'get',
  path: '/credits',
  operationId: 'listCreditTabs',
  description: 'Credit tabs (one per sale on credit) of the organisation, with what is still owed.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Credit tabs of the organisation, newest first, paged',
  request: { query: ListCreditTabsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(CreditTab), 'Credit tabs; meta has the page') },
});

export const profile = defineRoute('bearer', {
  method: 'get',
  path: '/credits/customers/{customer_id}',
  operationId: 'getCreditProfile',
  description: 'Everything about what one customer owes and has paid, for the credit page. Changes nothing.',
  tags,
  summary: "A customer's credit profile: tabs, payments, messages and notes",
  request: { params: CustomerIdParam },
  responses: { 200: jsonResponse(Envelope(CreditProfile), 'Credit profile') },
});

export const pay = defineRoute('bearer', {
  method: 'post',
  path: '/credits/customers/{customer_id}/payments',
  operationId: 'recordCustomerPayment',
  errors: ['IDEMPOTENCY_IN_FLIGHT', 'IDEMPOTENCY_MISMATCH', 'INVALID_STATE', 'OVERPAYMENT'],
  tags,
  summary: 'Record a payment, allocated to the oldest unsettled tabs first (422 OVERPAYMENT above what is owed)',
  description:
    'Retry safely with an Idempotency-Key header: the same key and body replay the first answer; the same key with another body is 422.',
  request: {
    params: CustomerIdParam,
    headers: idempotencyHeader,
    body: jsonBody(RecordCreditPaymentInput, { amount: 15000, method: 'M-Pesa', reference: 'QK7H2M9X1P' }),
  },
  responses: { 200: jsonResponse(Envelope(CreditPayment), 'The payment and its allocations') },
});

export const remind = defineRoute('bearer', {
  method: 'post',
  path: '/credits/customers/{customer_id}/remind',
  operationId: 'remindCustomer',
  description: 'Sends the customer an SMS with what they owe; uses the SMS allowance of the plan.',
  errors: ['BUSINESS_RULE', 'PLAN_LIMIT'],
  tags,
  summary: 'Text the customer what they owe (Swahili and English); 422 when nothing is owed or there is no phone',
  request: { params: CustomerIdParam },
  responses: { 200: jsonResponse(Envelope(CreditMessage), 'The reminder, status `sent`') },
});

export const message = defineRoute('bearer', {
  method: 'post',
  path: '/credits/customers/{customer_id}/messages',
  operationId: 'logCustomerMessage',
  description: "Records a contact made outside Duka in the customer's credit history.",
  tags,
  summary: 'Log a WhatsApp message, call or SMS made to the customer',
  request: { params: CustomerIdParam, body: jsonBody(LogCreditMessageInput, { kind: 'call', body: 'Promised to pay 10,000 on Friday' }) },
  responses: { 200: jsonResponse(Envelope(CreditMessage), 'The logged message, status `logged`') },
});

export const note = defineRoute('bearer', {
  method: 'post',
  path: '/credits/customers/{customer_id}/notes',
  operationId: 'addCreditNote',
  description: "Adds a note to the customer's credit history.",
  tags,
  summary: "Add a note to the customer's credit record",
  request: { params: CustomerIdParam, body: jsonBody(AddCreditNoteInput, { body: 'Agreed to weekly payments of 5,000' }) },
  responses: { 200: jsonResponse(Envelope(CreditNote), 'Credit note') },
});

export const writeOff = defineRoute('bearer', {
  needs: { permission: 'credit' },
  method: 'post',
  path: '/credits/{tab_id}/write-off',
  operationId: 'writeOffCreditTab',
  description: "Writes off what is still owed on one tab, with a reason; the debt leaves the customer's balance.",
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Forgive what is still owed on a tab (409 INVALID_STATE when settled or already written off)',
  request: { params: TabIdParam, body: jsonBody(WriteOffInput, { reason: 'customer moved away; unreachable for 6 months' }) },
  responses: { 200: jsonResponse(Envelope(CreditTab), 'The tab, status `written_off`') },
});

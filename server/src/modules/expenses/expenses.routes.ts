import { CreateExpenseInput, Envelope, Expense, ExpenseSummary, ExpenseSummaryQuery, IdParam, ListExpensesQuery, MessageEnvelope, PagedEnvelope, UpdateExpenseInput } from '@duka/shared';
import { defineRoute, idempotencyHeader, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Expenses'];
const expense = jsonResponse(Envelope(Expense), 'Expense');

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/expenses',
  tags,
  summary: "The active store's expenses, filtered, ordered (default newest first) and paged",
  request: { query: ListExpensesQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Expense), 'Expenses; meta has the page') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/expenses',
  tags,
  summary: 'Record an expense in the active store',
  description: 'Retry safely with an Idempotency-Key header: the same key and body replay the first answer.',
  request: { headers: idempotencyHeader, body: jsonBody(CreateExpenseInput) },
  responses: { 200: expense },
});

export const summary = defineRoute('bearer', {
  method: 'get',
  path: '/expenses/summary',
  tags,
  summary: "Total and per-category spending of the active store; default this month so far (organisation time zone)",
  request: { query: ExpenseSummaryQuery },
  responses: { 200: jsonResponse(Envelope(ExpenseSummary), 'Summary') },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/expenses/{id}',
  tags,
  summary: 'An expense of the active store',
  request: { params: IdParam },
  responses: { 200: expense },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/expenses/{id}',
  tags,
  summary: 'Update an expense; `null` clears payment_reference, notes or receipt_url',
  request: { params: IdParam, body: jsonBody(UpdateExpenseInput) },
  responses: { 200: expense },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/expenses/{id}',
  tags,
  summary: 'Delete an expense for good',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, '`success` true') },
});

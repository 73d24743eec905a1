import {
  CreateExpenseInput,
  Envelope,
  Expense,
  ExpenseSummary,
  ExpenseSummaryQuery,
  IdParam,
  ListExpensesQuery,
  MessageEnvelope,
  PagedEnvelope,
  UpdateExpenseInput,
} from '@duka/shared';
import { defineRoute, idempotencyHeader, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Expenses'];
const expense = jsonResponse(Envelope(Expense), 'Expense');

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/expenses',
  operationId: 'listExpenses',
  description: "The active store's expenses.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The active store's expenses, filtered, ordered (default newest first) and paged",
  request: { query: ListExpensesQuery },
  responses: { 200: jsonResponse(PagedEnvelope(Expense), 'Expenses; meta has the page') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/expenses',
  operationId: 'createExpense',
  errors: ['CONFLICT', 'IDEMPOTENCY_IN_FLIGHT', 'IDEMPOTENCY_MISMATCH', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Record an expense in the active store',
  description: 'Retry safely with an Idempotency-Key header: the same key and body replay the first answer.',
  request: {
    headers: idempotencyHeader,
    body: jsonBody(CreateExpenseInput, {
      title: 'Umeme (electricity) November',
      category: 'Utilities',
      amount: 45000,
      payment_method: 'M-Pesa',
      payment_reference: 'LUKU-88123',
    }),
  },
  responses: { 200: expense },
});

export const summary = defineRoute('bearer', {
  method: 'get',
  path: '/expenses/summary',
  operationId: 'getExpenseSummary',
  description: 'What the active store spent, by category.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Total and per-category spending of the active store; default this month so far (organisation time zone)',
  request: { query: ExpenseSummaryQuery },
  responses: { 200: jsonResponse(Envelope(ExpenseSummary), 'Summary') },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/expenses/{id}',
  operationId: 'getExpense',
  description: 'One expense.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'An expense of the active store',
  request: { params: IdParam },
  responses: { 200: expense },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/expenses/{id}',
  operationId: 'updateExpense',
  description: 'Changes an expense of the active store.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Update an expense; `null` clears payment_reference, notes or receipt_url',
  request: { params: IdParam, body: jsonBody(UpdateExpenseInput, { amount: 47500, notes: 'includes the meter fee' }) },
  responses: { 200: expense },
});

export const remove = defineRoute('bearer', {
  method: 'delete',
  path: '/expenses/{id}',
  operationId: 'deleteExpense',
  description: 'Deletes an expense of the active store; it leaves the cash flow figures.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Delete an expense for good',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageEnvelope, '`success` true') },
});

import {
  CreateCustomerInput,
  Customer,
  CustomerCreditsQuery,
  CustomerErasure,
  CustomerPersonalData,
  CustomerList,
  CustomerWithCredit,
  Envelope,
  IdParam,
  ListCustomersQuery,
  PageMeta,
  PersonalDataQuery,
  UpdateCustomerInput,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Customers'];
const customer = jsonResponse(Envelope(Customer), 'Customer');

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/customers',
  operationId: 'listCustomers',
  description: 'Customers of the organisation, searched by name or phone.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Customers of the organisation, filtered and paged, ordered by name',
  request: { query: ListCustomersQuery },
  responses: { 200: jsonResponse(Envelope(CustomerList, PageMeta), 'A page of customers') },
});

export const create = defineRoute('bearer', {
  needs: { powers: ['set_credit_limit'] },
  method: 'post',
  path: '/customers',
  operationId: 'createCustomer',
  description: 'Adds a customer; a credit limit of 0 means no limit.',
  errors: ['DUPLICATE', 'NOT_FOUND'],
  tags,
  summary: 'Add a customer (phone stored in E.164, unique in the organisation: 409 DUPLICATE)',
  request: { body: jsonBody(CreateCustomerInput, { name: 'Mzee Hamisi', phone: '0765432109', segment: 'Regular', credit_limit: 50000 }) },
  responses: { 200: customer },
});

export const credits = defineRoute('bearer', {
  method: 'get',
  path: '/customers/credits',
  operationId: 'listCustomersOwing',
  description: 'Who owes what: customers with an unsettled tab, with totals and the oldest due date.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Customers who owe something, with their credit figures, oldest due date first',
  request: { query: CustomerCreditsQuery },
  responses: { 200: jsonResponse(Envelope(z.array(CustomerWithCredit)), 'Customers with credit') },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/customers/{id}',
  operationId: 'getCustomer',
  description: 'One customer with their figures.',
  tags,
  summary: 'A customer',
  request: { params: IdParam },
  responses: { 200: customer },
});

export const patch = defineRoute('bearer', {
  needs: { powers: ['set_credit_limit', 'remove_customer'] },
  method: 'patch',
  path: '/customers/{id}',
  operationId: 'updateCustomer',
  description: "Changes a customer's details, segment or credit limit.",
  errors: ['DUPLICATE'],
  tags,
  summary: 'Update a customer; `null` clears phone, email or notes',
  request: { params: IdParam, body: jsonBody(UpdateCustomerInput, { credit_limit: 80000, notes: 'pays on Fridays' }) },
  responses: { 200: customer },
});

export const personalData = defineRoute('owner', {
  method: 'get',
  path: '/customers/{id}/personal-data',
  operationId: 'exportCustomerPersonalData',
  description:
    "Everything the shop holds about one customer, for them to take away (Personal Data Protection Act 2022): the customer, their sales with lines, credit tabs, payments, reminders and notes, messages sent to them, mobile money, and their sales' fiscal and prescription records. An extension of the contract (docs/security.md); each export is audited.",
  tags,
  summary: "A customer's personal data, as JSON or CSV",
  request: { params: IdParam, query: PersonalDataQuery },
  responses: {
    200: {
      description: 'JSON: the envelope with the document. CSV: a download, one row per field (section, record_id, field, value)',
      content: {
        'application/json': { schema: Envelope(CustomerPersonalData) },
        'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8' }) },
      },
    },
  },
});

export const erase = defineRoute('owner', {
  method: 'post',
  path: '/customers/{id}/erase',
  operationId: 'eraseCustomer',
  description:
    "Erases a customer's personal data at their request: name, phone, email, notes and TIN go from the customer, their sales, credit, messages and every text naming them; amounts, tax, dates and receipt numbers stay (the retention the law asks). The tills' copies follow on their next pull. Erasing again changes nothing. An extension of the contract (docs/security.md); audited.",
  tags,
  summary: "Erase a customer's personal data, keeping the records the law asks to keep",
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(CustomerErasure), 'What was kept') },
});

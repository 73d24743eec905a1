import {
  CreateCustomerInput,
  Customer,
  CustomerCreditsQuery,
  CustomerList,
  CustomerWithCredit,
  Envelope,
  IdParam,
  ListCustomersQuery,
  PageMeta,
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

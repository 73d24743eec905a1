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
  tags,
  summary: 'Customers of the organisation, filtered and paged, ordered by name',
  request: { query: ListCustomersQuery },
  responses: { 200: jsonResponse(Envelope(CustomerList, PageMeta), 'A page of customers') },
});

export const create = defineRoute('bearer', {
  method: 'post',
  path: '/customers',
  tags,
  summary: 'Add a customer (phone stored in E.164, unique in the organisation: 409 DUPLICATE)',
  request: { body: jsonBody(CreateCustomerInput) },
  responses: { 200: customer },
});

export const credits = defineRoute('bearer', {
  method: 'get',
  path: '/customers/credits',
  tags,
  summary: 'Customers who owe something, with their credit figures, oldest due date first',
  request: { query: CustomerCreditsQuery },
  responses: { 200: jsonResponse(Envelope(z.array(CustomerWithCredit)), 'Customers with credit') },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/customers/{id}',
  tags,
  summary: 'A customer',
  request: { params: IdParam },
  responses: { 200: customer },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/customers/{id}',
  tags,
  summary: 'Update a customer; `null` clears phone, email or notes',
  request: { params: IdParam, body: jsonBody(UpdateCustomerInput) },
  responses: { 200: customer },
});

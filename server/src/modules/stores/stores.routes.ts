import {
  CreateStoreInput,
  Envelope,
  IdParam,
  ListStoresQuery,
  Store,
  StoreList,
  StoreStaffList,
  StoreStats,
  StoreStatusInput,
  StoreWeek,
  UpdateStoreInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Stores'];

export const list = defineRoute('owner', {
  method: 'get',
  path: '/stores',
  operationId: 'listStores',
  errors: ['NOT_FOUND'],
  tags,
  summary: "The organisation's stores with today's sales, transactions and staff on duty",
  description:
    '"Today" is the organisation\'s time zone. Sales count `paid` and `credit` transactions. Staff on duty: active users assigned to the store, ' +
    'employment status `active`, whose shift covers the current local time (morning 06:00-14:00, evening 14:00-22:00, full_day 06:00-22:00, ' +
    'weekend all of Saturday and Sunday).',
  request: { query: ListStoresQuery },
  responses: { 200: jsonResponse(Envelope(StoreList), 'Stores with live KPIs') },
});

export const stats = defineRoute('owner', {
  method: 'get',
  path: '/stores/stats',
  operationId: 'getStoreStats',
  description: 'Counts of stores by status, sales of every store today and the number of staff.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Store counts, sales of every store today and the number of staff',
  responses: { 200: jsonResponse(Envelope(StoreStats), 'Totals') },
});

export const create = defineRoute('owner', {
  method: 'post',
  path: '/stores',
  operationId: 'createStore',
  description: "Opens a store in the organisation; counts against the plan's store limit.",
  errors: ['DUPLICATE', 'NOT_FOUND', 'PLAN_LIMIT'],
  tags,
  summary: 'Open a new store',
  request: {
    body: jsonBody(CreateStoreInput, {
      name: 'Duka Kariakoo',
      code: 'KRK',
      phone: '0712345678',
      area: 'Kariakoo',
      open_hours: '07:00-21:00',
      vat_enabled: false,
    }),
  },
  responses: { 200: jsonResponse(Envelope(Store), 'The new store') },
});

export const getOne = defineRoute('owner', {
  method: 'get',
  path: '/stores/{id}',
  operationId: 'getStore',
  description: 'One store of the organisation.',
  tags,
  summary: 'One store',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Store), 'Store') },
});

export const update = defineRoute('owner', {
  method: 'patch',
  path: '/stores/{id}',
  operationId: 'updateStore',
  errors: ['DUPLICATE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: "Change a store's details",
  description: '`is_active: false` deactivates the store like DELETE (never the last active one); `true` reactivates it.',
  request: { params: IdParam, body: jsonBody(UpdateStoreInput, { open_hours: '07:00-22:00', color: '#1E88E5' }) },
  responses: { 200: jsonResponse(Envelope(Store), 'Updated store') },
});

export const remove = defineRoute('owner', {
  method: 'delete',
  path: '/stores/{id}',
  operationId: 'deactivateStore',
  description: 'Deactivates the store; its records stay and it can be reactivated with PATCH.',
  errors: ['DUPLICATE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Deactivate a store (soft delete); the last active store cannot be deactivated',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Store), 'The deactivated store') },
});

export const staff = defineRoute('owner', {
  method: 'get',
  path: '/stores/{id}/staff',
  operationId: 'listStoreStaff',
  description: 'The active accounts assigned to the store.',
  tags,
  summary: 'Active user accounts assigned to the store (any role, the owner too), by name',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StoreStaffList), 'Users') },
});

export const week = defineRoute('owner', {
  method: 'get',
  path: '/stores/{id}/week',
  operationId: 'getStoreWeek',
  description: "The store's sales over the last 7 local days.",
  tags,
  summary: 'Sales of the last 7 days, one row per local day, oldest first, today last',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StoreWeek), 'Daily sales') },
});

export const setStatus = defineRoute('owner', {
  method: 'patch',
  path: '/stores/{id}/status',
  operationId: 'setStoreStatus',
  description: "Sets the store's status as tills and customers see it.",
  errors: ['DUPLICATE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Mark a store open, closed or busy',
  request: { params: IdParam, body: jsonBody(StoreStatusInput, { status: 'busy' }) },
  responses: { 200: jsonResponse(Envelope(Store), 'Store') },
});

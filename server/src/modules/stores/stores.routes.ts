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
  tags,
  summary: "The organisation's stores with today's sales, transactions and staff on duty",
  description:
    "\"Today\" is the organisation's time zone. Sales count `paid` and `credit` transactions. Staff on duty: active users assigned to the store, " +
    'employment status `active`, whose shift covers the current local time (morning 06:00-14:00, evening 14:00-22:00, full_day 06:00-22:00, ' +
    'weekend all of Saturday and Sunday).',
  request: { query: ListStoresQuery },
  responses: { 200: jsonResponse(Envelope(StoreList), 'Stores with live KPIs') },
});

export const stats = defineRoute('owner', {
  method: 'get',
  path: '/stores/stats',
  tags,
  summary: 'Store counts, sales of every store today and the number of staff',
  responses: { 200: jsonResponse(Envelope(StoreStats), 'Totals') },
});

export const create = defineRoute('owner', {
  method: 'post',
  path: '/stores',
  tags,
  summary: 'Open a new store',
  request: { body: jsonBody(CreateStoreInput) },
  responses: { 200: jsonResponse(Envelope(Store), 'The new store') },
});

export const getOne = defineRoute('owner', {
  method: 'get',
  path: '/stores/{id}',
  tags,
  summary: 'One store',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Store), 'Store') },
});

export const update = defineRoute('owner', {
  method: 'patch',
  path: '/stores/{id}',
  tags,
  summary: "Change a store's details",
  description: '`is_active: false` deactivates the store like DELETE (never the last active one); `true` reactivates it.',
  request: { params: IdParam, body: jsonBody(UpdateStoreInput) },
  responses: { 200: jsonResponse(Envelope(Store), 'Updated store') },
});

export const remove = defineRoute('owner', {
  method: 'delete',
  path: '/stores/{id}',
  tags,
  summary: 'Deactivate a store (soft delete); the last active store cannot be deactivated',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(Store), 'The deactivated store') },
});

export const staff = defineRoute('owner', {
  method: 'get',
  path: '/stores/{id}/staff',
  tags,
  summary: 'Active user accounts assigned to the store (any role, the owner too), by name',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StoreStaffList), 'Users') },
});

export const week = defineRoute('owner', {
  method: 'get',
  path: '/stores/{id}/week',
  tags,
  summary: 'Sales of the last 7 days, one row per local day, oldest first, today last',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StoreWeek), 'Daily sales') },
});

export const setStatus = defineRoute('owner', {
  method: 'patch',
  path: '/stores/{id}/status',
  tags,
  summary: 'Mark a store open, closed or busy',
  request: { params: IdParam, body: jsonBody(StoreStatusInput) },
  responses: { 200: jsonResponse(Envelope(Store), 'Store') },
});

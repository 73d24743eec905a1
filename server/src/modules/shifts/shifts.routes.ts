import {
  CloseShiftInput,
  Envelope,
  IdParam,
  ListShiftsQuery,
  OpenShiftInput,
  orNull,
  PagedEnvelope,
  TillShift,
  TillShiftWithReport,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Point of sale'];
const withReport = jsonResponse(Envelope(TillShiftWithReport), 'The shift with its report (X while open, Z once closed)');

export const open = defineRoute('bearer', {
  method: 'post',
  path: '/pos/shifts',
  operationId: 'openShift',
  description:
    'Opens a shift for the caller at the active store with a float (cash in the drawer). Every sale, refund, void, expense and credit payment the caller makes while it is open belongs to it. One open shift per cashier per store: a second is 409 naming the one open. A client-generated `id` makes it safe to retry.',
  errors: ['CONFLICT', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Open a shift with a float',
  request: { body: jsonBody(OpenShiftInput, { opening_float: 50000, till_number: 'T1', note: 'float from the safe' }) },
  responses: { 201: withReport },
});

export const current = defineRoute('bearer', {
  method: 'get',
  path: '/pos/shifts/current',
  operationId: 'getCurrentShift',
  description: "The caller's open shift at the active store with its X report, or `data: null` when none is open.",
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The caller's open shift, or null",
  responses: { 200: jsonResponse(Envelope(orNull(TillShiftWithReport)), 'The open shift, or null') },
});

export const close = defineRoute('bearer', {
  method: 'post',
  path: '/pos/shifts/{id}/close',
  operationId: 'closeShift',
  description:
    "Closes a shift with what was counted: the drawer's cash (required) and each wallet's or the bank's total from its statement. Records expected, counted and over/short per method; a shortfall beyond the owner's threshold notifies the store. Only the shift's cashier, a manager or the owner; a closed shift is 409.",
  errors: ['FORBIDDEN', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Close a shift with its count (Z report)',
  request: {
    params: IdParam,
    body: jsonBody(CloseShiftInput, { counted: { Cash: 148000, 'M-Pesa': 62500 }, note: 'one 2,000 note short' }),
  },
  responses: { 200: withReport },
});

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/pos/shifts',
  operationId: 'listShifts',
  description: "The active store's shifts, newest first: every till's for the owner and managers, a cashier's own otherwise.",
  errors: ['FORBIDDEN', 'INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: "The active store's shifts, filtered and paged",
  request: { query: ListShiftsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(TillShift), 'Shifts; meta has the page') },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/pos/shifts/{id}',
  operationId: 'getShift',
  description: 'One shift with its report; a cashier may see only their own.',
  errors: ['FORBIDDEN', 'INVALID_STATE'],
  tags,
  summary: 'A shift with its X or Z report',
  request: { params: IdParam },
  responses: { 200: withReport },
});

import {
  CreateStaffInput,
  Envelope,
  IdParam,
  ListStaffQuery,
  PageMeta,
  StaffActivity,
  StaffActivityQuery,
  StaffDeactivated,
  StaffKpis,
  StaffList,
  StaffMember,
  StaffPasswordReset,
  StaffPermissionsInput,
  StaffShiftInput,
  StaffStats,
  UpdateStaffInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Staff'];
const member = jsonResponse(Envelope(StaffMember), 'Staff record');

export const list = defineRoute('owner', {
  method: 'get',
  path: '/staff',
  operationId: 'listStaff',
  description: 'Staff and managers of the organisation.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Staff and managers of the organisation, filtered, ordered and paged',
  request: { query: ListStaffQuery },
  responses: { 200: jsonResponse(Envelope(StaffList, PageMeta), 'A page of staff') },
});

export const kpis = defineRoute('owner', {
  method: 'get',
  path: '/staff/kpis',
  operationId: 'getStaffKpis',
  description: "Today's staff figures: on shift, on leave, sales per member.",
  errors: ['NOT_FOUND'],
  tags,
  summary: "Today's staff figures (organisation time zone)",
  responses: { 200: jsonResponse(Envelope(StaffKpis), 'Staff KPIs') },
});

export const create = defineRoute('owner', {
  method: 'post',
  path: '/staff',
  operationId: 'createStaff',
  description: "Creates a staff member or manager with a temporary password sent by SMS; counts against the plan's staff limit.",
  errors: ['DUPLICATE', 'INVALID_STATE', 'NOT_FOUND', 'PLAN_LIMIT'],
  tags,
  summary: 'Add a staff member or manager; a temporary password is sent by SMS',
  request: {
    body: jsonBody(CreateStaffInput, {
      first_name: 'Juma',
      last_name: 'Said',
      phone: '0754123456',
      role: 'staff',
      store_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f',
      shift: 'morning',
      pin: '4821',
      can_refund: false,
      can_discount: true,
    }),
  },
  responses: { 200: member },
});

export const getOne = defineRoute('owner', {
  method: 'get',
  path: '/staff/{id}',
  operationId: 'getStaffMember',
  description: 'One staff member with their store, shift and permissions.',
  tags,
  summary: 'One staff member',
  request: { params: IdParam },
  responses: { 200: member },
});

export const patch = defineRoute('owner', {
  method: 'patch',
  path: '/staff/{id}',
  operationId: 'updateStaffMember',
  description: 'Changes a staff member; a new role, store or permission applies from their next request.',
  errors: ['DUPLICATE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Update any field given at creation; a new PIN replaces the old one',
  request: { params: IdParam, body: jsonBody(UpdateStaffInput, { shift: 'evening', can_refund: true }) },
  responses: { 200: member },
});

export const remove = defineRoute('owner', {
  method: 'delete',
  path: '/staff/{id}',
  operationId: 'deactivateStaffMember',
  description: "Deactivates the member's account: their sessions end at once; their sales and records stay.",
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Deactivate (soft delete): the member is signed out and can no longer sign in',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StaffDeactivated), 'Deactivated') },
});

export const stats = defineRoute('owner', {
  method: 'get',
  path: '/staff/{id}/stats',
  operationId: 'getStaffStats',
  description: "The member's sales, refunds and voids from the ledger.",
  tags,
  summary: "The member's sales figures from the ledger",
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StaffStats), 'Sales figures') },
});

export const activity = defineRoute('owner', {
  method: 'get',
  path: '/staff/{id}/activity',
  operationId: 'getStaffActivity',
  description: 'What the member did on one local day.',
  tags,
  summary: "The member's activity on one local day, oldest first",
  request: { params: IdParam, query: StaffActivityQuery },
  responses: { 200: jsonResponse(Envelope(StaffActivity), 'Activity') },
});

export const shift = defineRoute('owner', {
  method: 'patch',
  path: '/staff/{id}/shift',
  operationId: 'setStaffShift',
  description: "Changes the member's shift or employment status.",
  errors: ['DUPLICATE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Set the shift and/or employment status',
  request: { params: IdParam, body: jsonBody(StaffShiftInput, { shift: 'full_day', employment_status: 'active' }) },
  responses: { 200: member },
});

export const permissions = defineRoute('owner', {
  method: 'patch',
  path: '/staff/{id}/permissions',
  operationId: 'setStaffPermissions',
  description: "Grants or removes the member's refund, discount, reports and pharmacy permissions.",
  errors: ['DUPLICATE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Set permission flags; they apply at the member’s next token refresh',
  request: { params: IdParam, body: jsonBody(StaffPermissionsInput, { can_refund: true, can_view_reports: false }) },
  responses: { 200: member },
});

export const resetPassword = defineRoute('owner', {
  method: 'post',
  path: '/staff/{id}/reset-password',
  operationId: 'resetStaffPassword',
  description:
    'Sends the member a new temporary password by SMS and signs them out everywhere; their next sign-in may only set a new password. A deactivated member is 409.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Reset a forgotten password: a temporary one by SMS, the member signed out',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StaffPasswordReset), 'Temporary password sent') },
});

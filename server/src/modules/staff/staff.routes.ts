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
  tags,
  summary: 'Staff and managers of the organisation, filtered, ordered and paged',
  request: { query: ListStaffQuery },
  responses: { 200: jsonResponse(Envelope(StaffList, PageMeta), 'A page of staff') },
});

export const kpis = defineRoute('owner', {
  method: 'get',
  path: '/staff/kpis',
  tags,
  summary: "Today's staff figures (organisation time zone)",
  responses: { 200: jsonResponse(Envelope(StaffKpis), 'Staff KPIs') },
});

export const create = defineRoute('owner', {
  method: 'post',
  path: '/staff',
  tags,
  summary: 'Add a staff member or manager; a temporary password is sent by SMS',
  request: { body: jsonBody(CreateStaffInput) },
  responses: { 200: member },
});

export const getOne = defineRoute('owner', {
  method: 'get',
  path: '/staff/{id}',
  tags,
  summary: 'One staff member',
  request: { params: IdParam },
  responses: { 200: member },
});

export const patch = defineRoute('owner', {
  method: 'patch',
  path: '/staff/{id}',
  tags,
  summary: 'Update any field given at creation; a new PIN replaces the old one',
  request: { params: IdParam, body: jsonBody(UpdateStaffInput) },
  responses: { 200: member },
});

export const remove = defineRoute('owner', {
  method: 'delete',
  path: '/staff/{id}',
  tags,
  summary: 'Deactivate (soft delete): the member is signed out and can no longer sign in',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StaffDeactivated), 'Deactivated') },
});

export const stats = defineRoute('owner', {
  method: 'get',
  path: '/staff/{id}/stats',
  tags,
  summary: "The member's sales figures from the ledger",
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(StaffStats), 'Sales figures') },
});

export const activity = defineRoute('owner', {
  method: 'get',
  path: '/staff/{id}/activity',
  tags,
  summary: "The member's activity on one local day, oldest first",
  request: { params: IdParam, query: StaffActivityQuery },
  responses: { 200: jsonResponse(Envelope(StaffActivity), 'Activity') },
});

export const shift = defineRoute('owner', {
  method: 'patch',
  path: '/staff/{id}/shift',
  tags,
  summary: 'Set the shift and/or employment status',
  request: { params: IdParam, body: jsonBody(StaffShiftInput) },
  responses: { 200: member },
});

export const permissions = defineRoute('owner', {
  method: 'patch',
  path: '/staff/{id}/permissions',
  tags,
  summary: 'Set permission flags; they apply at the member’s next token refresh',
  request: { params: IdParam, body: jsonBody(StaffPermissionsInput) },
  responses: { 200: member },
});

import {
  AdminAiUsage,
  AdminOrganisation,
  AdminOrganisationDetail,
  AdminStore,
  AdminSubscription,
  AdminUser,
  Envelope,
  IdParam,
  ListAdminAiUsageQuery,
  ListAdminOrganisationsQuery,
  ListAdminStoresQuery,
  ListAdminSubscriptionsQuery,
  ListAdminUsersQuery,
  PagedEnvelope,
  PageQuery,
  UpdateAdminOrganisationInput,
  UpdateAdminStoreInput,
  UpdateAdminUserInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Platform administration'];

export const listOrganisations = defineRoute('admin', {
  method: 'get',
  path: '/admin/organisations',
  operationId: 'listOrganisations',
  description: 'Every organisation on the platform.',
  tags,
  summary: 'Organisations, newest first, with store and user counts',
  request: { query: ListAdminOrganisationsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminOrganisation), 'A page of organisations') },
});

export const getOrganisation = defineRoute('admin', {
  method: 'get',
  path: '/admin/organisations/{id}',
  operationId: 'getOrganisationDetail',
  description: 'One organisation with its figures.',
  tags,
  summary: 'One organisation with its related counts, sales total and AI credits this month',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(AdminOrganisationDetail), 'The organisation') },
});

export const organisationStores = defineRoute('admin', {
  method: 'get',
  path: '/admin/organisations/{id}/stores',
  operationId: 'listOrganisationStores',
  description: "One organisation's stores.",
  tags,
  summary: "The organisation's stores, newest first (active and deactivated)",
  request: { params: IdParam, query: PageQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminStore), 'A page of stores') },
});

export const organisationUsers = defineRoute('admin', {
  method: 'get',
  path: '/admin/organisations/{id}/users',
  operationId: 'listOrganisationUsers',
  description: "One organisation's users.",
  tags,
  summary: "The organisation's users, newest first; the filters of GET /admin/users",
  request: { params: IdParam, query: ListAdminUsersQuery.omit({ org_id: true }) },
  responses: { 200: jsonResponse(PagedEnvelope(AdminUser), 'A page of users') },
});

export const updateOrganisation = defineRoute('admin', {
  method: 'patch',
  path: '/admin/organisations/{id}',
  operationId: 'updateOrganisationStatus',
  description: 'Suspends or restores an organisation, or sets its monthly AI credits.',
  tags,
  summary: 'Suspend or restore an organisation (suspending signs its users out), set its monthly AI credits; audited',
  request: { params: IdParam, body: jsonBody(UpdateAdminOrganisationInput, { is_active: false }) },
  responses: { 200: jsonResponse(Envelope(AdminOrganisationDetail), 'The organisation') },
});

export const listUsers = defineRoute('admin', {
  method: 'get',
  path: '/admin/users',
  operationId: 'listAllUsers',
  description: 'Users of the whole platform.',
  tags,
  summary: 'Users of every organisation (and platform administrators), newest first',
  request: { query: ListAdminUsersQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminUser), 'A page of users') },
});

export const updateUser = defineRoute('admin', {
  method: 'patch',
  path: '/admin/users/{id}',
  operationId: 'updateUserStatus',
  description:
    "Deactivates or reactivates any user, changes a staff member's role, or resets a password to a temporary one (texted to the user, every session signed out).",
  errors: ['BUSINESS_RULE', 'DUPLICATE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Deactivate (signs out everywhere) or reactivate a user; staff ↔ manager role; reset the password to a temporary one; audited',
  request: { params: IdParam, body: jsonBody(UpdateAdminUserInput, { is_active: true, role: 'manager' }) },
  responses: { 200: jsonResponse(Envelope(AdminUser), 'The user') },
});

export const listStores = defineRoute('admin', {
  method: 'get',
  path: '/admin/stores',
  operationId: 'listAllStores',
  description: 'Stores of the whole platform.',
  tags,
  summary: 'Stores of every organisation, newest first',
  request: { query: ListAdminStoresQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminStore), 'A page of stores') },
});

export const updateStore = defineRoute('admin', {
  method: 'patch',
  path: '/admin/stores/{id}',
  operationId: 'updateStoreStatus',
  description: 'Deactivates or reactivates any store, or sets its status.',
  errors: ['DUPLICATE', 'INVALID_STATE', 'PLAN_LIMIT'],
  tags,
  summary: 'Deactivate or reactivate a store, or set its status, under the owner rules; audited',
  request: { params: IdParam, body: jsonBody(UpdateAdminStoreInput, { is_active: false }) },
  responses: { 200: jsonResponse(Envelope(AdminStore), 'The store') },
});

export const listSubscriptions = defineRoute('admin', {
  method: 'get',
  path: '/admin/subscriptions',
  operationId: 'listSubscriptions',
  description: "Every organisation's subscription.",
  tags,
  summary: "Each organisation's plan, subscription status, billing period and last payment, and AI allocation",
  request: { query: ListAdminSubscriptionsQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminSubscription), 'A page of plans, by organisation name') },
});

export const aiUsage = defineRoute('admin', {
  method: 'get',
  path: '/admin/ai/usage',
  operationId: 'listAiUsage',
  description: 'AI credit use per organisation.',
  tags,
  summary: 'AI credits used per organisation in a month, most used first',
  request: { query: ListAdminAiUsageQuery },
  responses: { 200: jsonResponse(PagedEnvelope(AdminAiUsage), 'A page of organisations') },
});

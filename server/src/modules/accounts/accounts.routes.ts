import {
  AiCredits,
  CreateUserInput,
  Envelope,
  IdParam,
  Organisation,
  Profile,
  SwitchStoreInput,
  SwitchStoreResult,
  TotpCodeInput,
  TotpDisableInput,
  TotpSetup,
  TotpStatus,
  UpdateMeInput,
  UpdateOrganisationInput,
  User,
} from '@duka/shared';
import { z } from 'zod';
import { defineRoute, example, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Accounts'];
const mfaTags = ['Accounts: authenticator MFA'];

export const getMe = defineRoute('bearer', {
  method: 'get',
  path: '/accounts/me',
  operationId: 'getMe',
  description:
    'Answers who the token belongs to: the user, their organisation, the active store and every store they may switch to. Changes nothing.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'The signed-in user with their organisation, active store and stores',
  responses: { 200: jsonResponse(Envelope(Profile), 'Profile') },
});

export const patchMe = defineRoute('password-change', {
  method: 'patch',
  path: '/accounts/me',
  operationId: 'updateMe',
  errors: ['DUPLICATE', 'NOT_FOUND'],
  tags,
  summary: 'Update your name, email, occupation or password',
  description:
    'A new password signs out your other sessions; send `current_password` to have it checked. A session signed in with a temporary password may use this route only, to set a new `password` (403 PASSWORD_CHANGE_REQUIRED otherwise); once set, the session may do everything its user may.',
  request: { body: jsonBody(UpdateMeInput, { first_name: 'Asha', occupation: 'Shop owner' }) },
  responses: { 200: jsonResponse(Envelope(Profile), 'Updated profile') },
});

export const getOrganisation = defineRoute('owner', {
  method: 'get',
  path: '/accounts/organisation',
  operationId: 'getOrganisation',
  description: "The organisation's details and settings; integration keys are never answered, only whether they are set.",
  errors: ['NOT_FOUND'],
  tags,
  summary: 'The organisation',
  responses: { 200: jsonResponse(Envelope(Organisation), 'Organisation') },
});

export const patchOrganisation = defineRoute('owner', {
  method: 'patch',
  path: '/accounts/organisation',
  operationId: 'updateOrganisation',
  description:
    "Changes the organisation's details, time zone, credit terms and integration keys (write-only: answered only as set or not).",
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Update the organisation; integration keys are write-only',
  request: { body: jsonBody(UpdateOrganisationInput, { name: 'Mama Asha Duka', tin: '123-456-789', credit_terms_days: 30 }) },
  responses: { 200: jsonResponse(Envelope(Organisation), 'Organisation') },
});

export const switchStore = defineRoute('bearer', {
  idempotency: 'none',
  method: 'post',
  path: '/accounts/switch-store',
  operationId: 'switchStore',
  description: 'Makes another store of the organisation the active one: every store-scoped route works on it with the new tokens.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags,
  summary: 'Work in another store: answers the store and a new token pair to use from now on',
  request: { body: jsonBody(SwitchStoreInput, { store_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f' }) },
  responses: { 200: jsonResponse(Envelope(SwitchStoreResult), 'Store and tokens') },
});

export const listUsers = defineRoute('owner', {
  method: 'get',
  path: '/accounts/users',
  operationId: 'listUsers',
  description: "The organisation's user accounts with their roles and permissions.",
  errors: ['NOT_FOUND'],
  tags,
  summary: "The organisation's users",
  responses: { 200: jsonResponse(Envelope(z.array(User)), 'Users') },
});

export const createUser = defineRoute('owner', {
  method: 'post',
  path: '/accounts/users',
  operationId: 'createUser',
  description:
    "Creates a user of the organisation with a temporary password sent by SMS (it must be changed at first sign-in); counts against the plan's staff limit.",
  errors: ['DUPLICATE', 'INVALID_STATE', 'NOT_FOUND', 'PLAN_LIMIT'],
  tags,
  summary: 'Add a user; a temporary password is sent by SMS',
  request: {
    body: jsonBody(CreateUserInput, {
      first_name: 'Juma',
      last_name: 'Said',
      phone: '0754123456',
      role: 'staff',
      store_id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f',
      can_refund: false,
    }),
  },
  responses: { 200: jsonResponse(Envelope(User), 'The new user') },
});

export const deleteUser = defineRoute('owner', {
  method: 'delete',
  path: '/accounts/users/{id}',
  operationId: 'deactivateUser',
  description: 'Deactivates the user: their sessions end and they can no longer sign in; their records stay.',
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Deactivate a user (soft delete)',
  request: { params: IdParam },
  responses: { 204: { description: 'Deactivated' } },
});

export const aiCredits = defineRoute('bearer', {
  method: 'get',
  path: '/accounts/ai-credits',
  operationId: 'getAiCredits',
  description: "This month's AI assistant credits of the organisation: allowed, used and left.",
  tags,
  summary: "This month's AI assistant credits",
  responses: {
    200: jsonResponse(
      Envelope(AiCredits),
      'Credits',
      example({ used: 12, allocated: 50, remaining: 38, month: '2026-11', percentage: 24 }),
    ),
  },
});

export const totpStatus = defineRoute('admin-enrolment', {
  method: 'get',
  path: '/accounts/mfa/totp/status',
  operationId: 'getTotpStatus',
  description: 'Whether the administrator has an authenticator enrolled.',
  errors: ['NOT_FOUND'],
  tags: mfaTags,
  summary: 'Authenticator enrolment status',
  responses: { 200: jsonResponse(Envelope(TotpStatus), 'Status') },
});

export const totpSetup = defineRoute('admin-enrolment', {
  idempotency: 'none',
  method: 'post',
  path: '/accounts/mfa/totp/setup',
  operationId: 'startTotpSetup',
  description: 'Starts (or restarts) enrolment with a new secret; authenticator sign-in begins only once a code confirms it.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags: mfaTags,
  summary: 'Start enrolment: a secret and otpauth:// URI for the authenticator app',
  responses: { 200: jsonResponse(Envelope(TotpSetup), 'Enrolment details') },
});

export const totpVerify = defineRoute('admin-enrolment', {
  idempotency: 'none',
  method: 'post',
  path: '/accounts/mfa/totp/verify',
  operationId: 'confirmTotpSetup',
  description: 'Confirms enrolment with a current code; from then on the administrator signs in with password and code.',
  errors: ['INVALID_STATE', 'NOT_FOUND'],
  tags: mfaTags,
  summary: 'Confirm enrolment with a code from the app',
  request: { body: jsonBody(TotpCodeInput, { code: '731904' }) },
  responses: { 200: jsonResponse(Envelope(TotpStatus), 'Enabled') },
});

export const totpDisable = defineRoute('admin-enrolment', {
  idempotency: 'none',
  method: 'post',
  path: '/accounts/mfa/totp/disable',
  operationId: 'disableTotp',
  description: 'Turns authenticator sign-in off after checking the password and a current code.',
  errors: ['INVALID_CREDENTIALS', 'INVALID_STATE', 'NOT_FOUND'],
  tags: mfaTags,
  summary: 'Disable authenticator sign-in (password and a current code)',
  request: { body: jsonBody(TotpDisableInput, { password: 'kariakoo1', code: '731904' }) },
  responses: { 200: jsonResponse(Envelope(TotpStatus), 'Disabled') },
});

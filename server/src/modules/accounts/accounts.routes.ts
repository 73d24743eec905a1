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
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Accounts'];
const mfaTags = ['Accounts: authenticator MFA'];

export const getMe = defineRoute('bearer', {
  method: 'get',
  path: '/accounts/me',
  tags,
  summary: 'The signed-in user with their organisation, active store and stores',
  responses: { 200: jsonResponse(Envelope(Profile), 'Profile') },
});

export const patchMe = defineRoute('password-change', {
  method: 'patch',
  path: '/accounts/me',
  tags,
  summary: 'Update your name, email, occupation or password',
  description:
    'A new password signs out your other sessions; send `current_password` to have it checked. A session signed in with a temporary password may use this route only, to set a new `password` (403 PASSWORD_CHANGE_REQUIRED otherwise); once set, the session may do everything its user may.',
  request: { body: jsonBody(UpdateMeInput) },
  responses: { 200: jsonResponse(Envelope(Profile), 'Updated profile') },
});

export const getOrganisation = defineRoute('owner', {
  method: 'get',
  path: '/accounts/organisation',
  tags,
  summary: 'The organisation',
  responses: { 200: jsonResponse(Envelope(Organisation), 'Organisation') },
});

export const patchOrganisation = defineRoute('owner', {
  method: 'patch',
  path: '/accounts/organisation',
  tags,
  summary: 'Update the organisation; integration keys are write-only',
  request: { body: jsonBody(UpdateOrganisationInput) },
  responses: { 200: jsonResponse(Envelope(Organisation), 'Organisation') },
});

export const switchStore = defineRoute('bearer', {
  idempotency: 'none',
  method: 'post',
  path: '/accounts/switch-store',
  tags,
  summary: 'Work in another store: answers the store and a new token pair to use from now on',
  request: { body: jsonBody(SwitchStoreInput) },
  responses: { 200: jsonResponse(Envelope(SwitchStoreResult), 'Store and tokens') },
});

export const listUsers = defineRoute('owner', {
  method: 'get',
  path: '/accounts/users',
  tags,
  summary: "The organisation's users",
  responses: { 200: jsonResponse(Envelope(z.array(User)), 'Users') },
});

export const createUser = defineRoute('owner', {
  method: 'post',
  path: '/accounts/users',
  tags,
  summary: 'Add a user; a temporary password is sent by SMS',
  request: { body: jsonBody(CreateUserInput) },
  responses: { 200: jsonResponse(Envelope(User), 'The new user') },
});

export const deleteUser = defineRoute('owner', {
  method: 'delete',
  path: '/accounts/users/{id}',
  tags,
  summary: 'Deactivate a user (soft delete)',
  request: { params: IdParam },
  responses: { 204: { description: 'Deactivated' } },
});

export const aiCredits = defineRoute('bearer', {
  method: 'get',
  path: '/accounts/ai-credits',
  tags,
  summary: "This month's AI assistant credits",
  responses: { 200: jsonResponse(Envelope(AiCredits), 'Credits') },
});

export const totpStatus = defineRoute('admin-enrolment', {
  method: 'get',
  path: '/accounts/mfa/totp/status',
  tags: mfaTags,
  summary: 'Authenticator enrolment status',
  responses: { 200: jsonResponse(Envelope(TotpStatus), 'Status') },
});

export const totpSetup = defineRoute('admin-enrolment', {
  idempotency: 'none',
  method: 'post',
  path: '/accounts/mfa/totp/setup',
  tags: mfaTags,
  summary: 'Start enrolment: a secret and otpauth:// URI for the authenticator app',
  responses: { 200: jsonResponse(Envelope(TotpSetup), 'Enrolment details') },
});

export const totpVerify = defineRoute('admin-enrolment', {
  idempotency: 'none',
  method: 'post',
  path: '/accounts/mfa/totp/verify',
  tags: mfaTags,
  summary: 'Confirm enrolment with a code from the app',
  request: { body: jsonBody(TotpCodeInput) },
  responses: { 200: jsonResponse(Envelope(TotpStatus), 'Enabled') },
});

export const totpDisable = defineRoute('admin-enrolment', {
  idempotency: 'none',
  method: 'post',
  path: '/accounts/mfa/totp/disable',
  tags: mfaTags,
  summary: 'Disable authenticator sign-in (password and a current code)',
  request: { body: jsonBody(TotpDisableInput) },
  responses: { 200: jsonResponse(Envelope(TotpStatus), 'Disabled') },
});

import { z } from 'zod';
import {
  ConfirmEmailQuery,
  Envelope,
  ForgotPasswordInput,
  LoginInput,
  LoginResult,
  LogoutInput,
  MessageEnvelope,
  MfaVerifyInput,
  OtpSendInput,
  OtpVerifyInput,
  RefreshInput,
  RegisterInput,
  RegisterResult,
  ResetPasswordInput,
  TokenPair,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Authentication'];
const done = (description: string) => ({ 200: jsonResponse(MessageEnvelope, description) });

export const register = defineRoute('public', {
  method: 'post',
  path: '/auth/register',
  tags,
  summary: 'Register an owner, organisation and first store; signs in at once',
  request: { body: jsonBody(RegisterInput) },
  responses: { 201: jsonResponse(Envelope(RegisterResult), 'Account created') },
});

export const otpSend = defineRoute('public', {
  method: 'post',
  path: '/auth/otp/send',
  tags,
  summary: 'Send a 6-digit code by SMS (purpose login or reset)',
  description: 'The answer is the same for every number. An unknown number gets no message; a known one gets no second code within 60 s of the last (that code still works for 10 minutes).',
  request: { body: jsonBody(OtpSendInput) },
  responses: done('Code sent if the number has an account'),
});

export const otpVerify = defineRoute('public', {
  method: 'post',
  path: '/auth/otp/verify',
  tags,
  summary: 'Sign in with an SMS code (purpose login); check a reset code (purpose reset, data null)',
  description: 'Codes are valid 10 minutes and allow 5 tries.',
  request: { body: jsonBody(OtpVerifyInput) },
  // A union, not .nullable(): the generator wrote a nullable named schema as allOf [TokenPair, object|null], which refuses null.
  responses: { 200: jsonResponse(Envelope(z.union([TokenPair, z.null()])), 'Token pair, or null for a valid reset code') },
});

export const login = defineRoute('public', {
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Sign in with email or phone and password',
  description: '5 wrong passwords lock the account for 15 minutes (423 with Retry-After). Enrolled admins get `mfa_required` and `mfa_token`.',
  request: { body: jsonBody(LoginInput) },
  responses: { 200: jsonResponse(Envelope(LoginResult), 'Signed in, or MFA challenge') },
});

export const mfaVerify = defineRoute('public', {
  method: 'post',
  path: '/auth/mfa/totp/verify',
  tags,
  summary: 'Second step of an admin sign-in: the MFA token and an authenticator code',
  request: { body: jsonBody(MfaVerifyInput) },
  responses: { 200: jsonResponse(Envelope(LoginResult), 'Signed in') },
});

export const refresh = defineRoute('public', {
  method: 'post',
  path: '/auth/refresh',
  tags,
  summary: 'Exchange a refresh token for a new pair (the old one stops working)',
  description: 'Reusing a refresh token revokes every token of its sign-in.',
  request: { body: jsonBody(RefreshInput) },
  responses: { 200: jsonResponse(Envelope(TokenPair), 'New token pair') },
});

export const confirmEmail = defineRoute('public', {
  method: 'get',
  path: '/auth/confirm-email',
  tags,
  summary: 'Confirm an email address from the emailed link',
  request: { query: ConfirmEmailQuery },
  responses: { 302: { description: 'Redirect to {SITE_URL}/login?verified=1 (verified=0 for an invalid or expired link)' } },
});

export const forgotPassword = defineRoute('public', {
  method: 'post',
  path: '/auth/password/forgot',
  tags,
  summary: 'Send a password-reset code; the answer never reveals whether the account exists',
  request: { body: jsonBody(ForgotPasswordInput) },
  responses: done('Always the same answer'),
});

export const resetPassword = defineRoute('public', {
  method: 'post',
  path: '/auth/password/reset',
  tags,
  summary: 'Set a new password with the reset code; signs out every session',
  request: { body: jsonBody(ResetPasswordInput) },
  responses: done('Password changed'),
});

export const logout = defineRoute('signing-out', {
  idempotency: 'none',
  method: 'post',
  path: '/auth/logout',
  tags,
  summary: 'Revoke this session’s refresh tokens',
  request: { body: { required: false, content: { 'application/json': { schema: LogoutInput } } } },
  responses: done('Signed out'),
});

export const resendConfirmation = defineRoute('bearer', {
  method: 'post',
  path: '/auth/resend-confirmation',
  tags,
  summary: 'Send the email confirmation link again',
  responses: done('Sent, or already confirmed'),
});

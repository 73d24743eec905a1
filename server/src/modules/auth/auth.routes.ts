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
  orNull,
  RefreshInput,
  RegisterInput,
  RegisterResult,
  ResetPasswordInput,
  TokenPair,
} from '@duka/shared';
import { defineRoute, example, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['Authentication'];
const TOKENS = {
  access_token: 'eyJhbGciOiJIUzI1NiJ9.access',
  refresh_token: 'rt_8f14e45fceea167a5a36dedd4bea2543',
  expires_in: 900,
  token_type: 'Bearer' as const,
};
const done = (description: string) => ({ 200: jsonResponse(MessageEnvelope, description) });

export const register = defineRoute('public', {
  method: 'post',
  path: '/auth/register',
  operationId: 'registerAccount',
  description: 'Creates the owner, their organisation and its first store on the free plan, and answers a token pair as a sign-in does.',
  errors: ['DUPLICATE', 'FORBIDDEN', 'RATE_LIMITED'],
  tags,
  summary: 'Register an owner, organisation and first store; signs in at once',
  request: {
    body: jsonBody(RegisterInput, {
      first_name: 'Asha',
      last_name: 'Mushi',
      phone: '0712345678',
      email: 'asha@example.tz',
      password: 'kariakoo1',
      confirm_password: 'kariakoo1',
      shop: { name: 'Mama Asha Duka', business_type: 'retail', region: 'dar-es-salaam', district: 'Kinondoni' },
    }),
  },
  responses: { 201: jsonResponse(Envelope(RegisterResult), 'Account created') },
});

export const otpSend = defineRoute('public', {
  method: 'post',
  path: '/auth/otp/send',
  operationId: 'sendOtp',
  errors: ['RATE_LIMITED'],
  tags,
  summary: 'Send a 6-digit code by SMS (purpose login or reset)',
  description:
    'The answer is the same for every number. An unknown number gets no message; a known one gets no second code within 60 s of the last (that code still works for 10 minutes).',
  request: { body: jsonBody(OtpSendInput, { phone: '0712345678', purpose: 'login' }) },
  responses: done('Code sent if the number has an account'),
});

export const otpVerify = defineRoute('public', {
  method: 'post',
  path: '/auth/otp/verify',
  operationId: 'verifyOtp',
  errors: ['FORBIDDEN', 'INVALID_CREDENTIALS', 'RATE_LIMITED'],
  tags,
  summary: 'Sign in with an SMS code (purpose login); check a reset code (purpose reset, data null)',
  description: 'Codes are valid 10 minutes and allow 5 tries.',
  request: { body: jsonBody(OtpVerifyInput, { phone: '0712345678', purpose: 'login', code: '482913' }) },
  responses: { 200: jsonResponse(Envelope(orNull(TokenPair)), 'Token pair, or null for a valid reset code') },
});

export const login = defineRoute('public', {
  method: 'post',
  path: '/auth/login',
  operationId: 'login',
  errors: ['ACCOUNT_LOCKED', 'FORBIDDEN', 'INVALID_CREDENTIALS', 'RATE_LIMITED'],
  tags,
  summary: 'Sign in with email or phone and password',
  description:
    '5 wrong passwords lock the account for 15 minutes (423 with Retry-After). Enrolled admins get `mfa_required` and `mfa_token`.',
  request: { body: jsonBody(LoginInput, { identifier: '+255712345678', password: 'kariakoo1' }) },
  responses: {
    200: jsonResponse(
      Envelope(LoginResult),
      'Signed in, or MFA challenge',
      example(
        {
          ...TOKENS,
          user: {
            id: '3f2a6c1e-8b4d-4e2a-9c7f-1a2b3c4d5e6f',
            first_name: 'Asha',
            last_name: 'Mushi',
            email: 'asha@example.tz',
            role: 'owner' as const,
          },
        },
        'signed in',
      ),
    ),
  },
});

export const mfaVerify = defineRoute('public', {
  method: 'post',
  path: '/auth/mfa/totp/verify',
  operationId: 'verifyMfaLogin',
  description:
    'Answers the token pair of an administrator whose password was right and whose authenticator code is right now; the MFA token lives 5 minutes.',
  errors: ['FORBIDDEN', 'INVALID_CREDENTIALS', 'RATE_LIMITED', 'TOKEN_EXPIRED', 'UNAUTHENTICATED'],
  tags,
  summary: 'Second step of an admin sign-in: the MFA token and an authenticator code',
  request: { body: jsonBody(MfaVerifyInput, { mfa_token: 'eyJhbGciOiJIUzI1NiJ9.mfa', code: '731904' }) },
  responses: { 200: jsonResponse(Envelope(LoginResult), 'Signed in') },
});

export const refresh = defineRoute('public', {
  method: 'post',
  path: '/auth/refresh',
  operationId: 'refreshTokens',
  errors: ['FORBIDDEN', 'RATE_LIMITED', 'SESSION_EXPIRED', 'UNAUTHENTICATED'],
  tags,
  summary: 'Exchange a refresh token for a new pair (the old one stops working)',
  description: 'Reusing a refresh token revokes every token of its sign-in.',
  request: { body: jsonBody(RefreshInput, { refresh_token: 'rt_8f14e45fceea167a5a36dedd4bea2543' }) },
  responses: { 200: jsonResponse(Envelope(TokenPair), 'New token pair', example(TOKENS, 'tokens refreshed')) },
});

export const confirmEmail = defineRoute('public', {
  method: 'get',
  path: '/auth/confirm-email',
  operationId: 'confirmEmail',
  description:
    'The link emailed at registration (or by resend-confirmation) lands here; the address is marked confirmed and the browser sent on to the site.',
  errors: ['RATE_LIMITED', 'TOKEN_EXPIRED', 'UNAUTHENTICATED'],
  tags,
  summary: 'Confirm an email address from the emailed link',
  request: { query: ConfirmEmailQuery },
  responses: { 302: { description: 'Redirect to {SITE_URL}/login?verified=1 (verified=0 for an invalid or expired link)' } },
});

export const forgotPassword = defineRoute('public', {
  method: 'post',
  path: '/auth/password/forgot',
  operationId: 'forgotPassword',
  description: 'Texts (or emails) a 6-digit reset code to the account, if there is one; the answer and its timing are the same either way.',
  errors: ['RATE_LIMITED'],
  tags,
  summary: 'Send a password-reset code; the answer never reveals whether the account exists',
  request: { body: jsonBody(ForgotPasswordInput, { identifier: '0712345678' }) },
  responses: done('Always the same answer'),
});

export const resetPassword = defineRoute('public', {
  method: 'post',
  path: '/auth/password/reset',
  operationId: 'resetPassword',
  description: 'Sets the new password when the reset code is right, and signs out every session of the account.',
  errors: ['INVALID_CREDENTIALS', 'RATE_LIMITED'],
  tags,
  summary: 'Set a new password with the reset code; signs out every session',
  request: {
    body: jsonBody(ResetPasswordInput, {
      identifier: '0712345678',
      otp: '482913',
      new_password: 'mwanza2026',
      confirm_password: 'mwanza2026',
    }),
  },
  responses: done('Password changed'),
});

export const logout = defineRoute('signing-out', {
  idempotency: 'none',
  method: 'post',
  path: '/auth/logout',
  operationId: 'logout',
  description:
    'Revokes the refresh tokens of this sign-in (or the one named in the body); answers success also when the session was already signed out.',
  tags,
  summary: 'Revoke this session’s refresh tokens',
  request: {
    body: {
      required: false,
      content: { 'application/json': { schema: LogoutInput, example: { refresh_token: 'rt_8f14e45fceea167a5a36dedd4bea2543' } } },
    },
  },
  responses: done('Signed out'),
});

export const resendConfirmation = defineRoute('bearer', {
  method: 'post',
  path: '/auth/resend-confirmation',
  operationId: 'resendConfirmation',
  description: 'Emails the confirmation link again to the signed-in user; nothing is sent when the address is confirmed already.',
  errors: ['BUSINESS_RULE'],
  tags,
  summary: 'Send the email confirmation link again',
  responses: done('Sent, or already confirmed'),
});

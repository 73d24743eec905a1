import { z } from 'zod';
import { BusinessTypeSlug, Email, Password, Phone, Role } from '../common.js';

const OtpCode = z.string().regex(/^\d{6}$/, 'must be 6 digits');
export const OtpPurpose = z.enum(['login', 'reset'], { error: 'must be login or reset' });
export type OtpPurpose = z.infer<typeof OtpPurpose>;

function passwordsMatch<T extends { confirm_password: string }>(key: keyof T & string) {
  return (v: T, ctx: z.RefinementCtx) => {
    if (v[key] !== v.confirm_password) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: `does not match ${key}` });
    }
  };
}

export const TokenPair = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    expires_in: z.int().meta({ description: 'Access-token lifetime in seconds', example: 900 }),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'TokenPair' });
export type TokenPair = z.infer<typeof TokenPair>;

export const RegisterInput = z
  .object({
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().max(100).default(''),
    phone: Phone,
    email: Email.optional(),
    password: Password,
    confirm_password: z.string(),
    occupation: z.string().trim().max(100).optional(),
    shop: z.object({
      name: z.string().trim().min(1).max(150),
      business_type: BusinessTypeSlug.default('retail'),
      region: z.string().trim().max(100).optional(),
      district: z.string().trim().max(100).optional(),
      ward: z.string().trim().max(100).optional(),
      street: z.string().trim().max(200).optional(),
      address: z.string().trim().max(300).optional(),
      latitude: z.number().min(-90).max(90).optional(),
      longitude: z.number().min(-180).max(180).optional(),
    }),
  })
  .superRefine(passwordsMatch('password'))
  .meta({ id: 'RegisterInput' });
export type RegisterInput = z.infer<typeof RegisterInput>;

export const RegisterResult = z
  .object({
    user_id: z.uuid(),
    org_id: z.uuid(),
    store_id: z.uuid(),
    tokens: TokenPair,
    status: z.enum(['active']).meta({ description: 'Account status; a new account can sell at once' }),
  })
  .meta({ id: 'RegisterResult' });

export const LoginInput = z
  .object({
    identifier: z.string().trim().min(3).max(254).meta({ description: 'Email or phone (`+255…` or `0…`)' }),
    password: z.string().min(1).max(200),
  })
  .meta({ id: 'LoginInput' });

export const LoginUser = z.object({
  id: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  role: Role,
  password_change_required: z.literal(true).optional().meta({
    description:
      'Present when the password used is temporary: this session may only set a new password (PATCH /accounts/me); every other route answers 403 PASSWORD_CHANGE_REQUIRED',
  }),
});

export const LoginResult = z
  .union([
    TokenPair.extend({ user: LoginUser }),
    z.object({
      mfa_required: z.literal(true),
      mfa_token: z.string().meta({ description: 'Send with a TOTP code to /auth/mfa/totp/verify within 5 minutes' }),
      expires_in: z.int(),
    }),
  ])
  .meta({ id: 'LoginResult' });

export const OtpSendInput = z.object({ phone: Phone, purpose: OtpPurpose }).meta({ id: 'OtpSendInput' });
export const OtpVerifyInput = z.object({ phone: Phone, purpose: OtpPurpose, code: OtpCode }).meta({ id: 'OtpVerifyInput' });
export const MfaVerifyInput = z.object({ mfa_token: z.string().min(1), code: OtpCode }).meta({ id: 'MfaVerifyInput' });
export const RefreshInput = z.object({ refresh_token: z.string().min(1).max(200) }).meta({ id: 'RefreshInput' });
export const LogoutInput = z.object({ refresh_token: z.string().min(1).max(200).optional() }).meta({ id: 'LogoutInput' });
export const ForgotPasswordInput = z.object({ identifier: z.string().trim().min(3).max(254) }).meta({ id: 'ForgotPasswordInput' });
export const ResetPasswordInput = z
  .object({
    identifier: z.string().trim().min(3).max(254),
    otp: OtpCode,
    new_password: Password,
    confirm_password: z.string(),
  })
  .superRefine(passwordsMatch('new_password'))
  .meta({ id: 'ResetPasswordInput' });
export const ConfirmEmailQuery = z.object({ token: z.string().min(1) });

export type LoginInput = z.infer<typeof LoginInput>;
export type LoginResult = z.infer<typeof LoginResult>;
export type OtpSendInput = z.infer<typeof OtpSendInput>;
export type OtpVerifyInput = z.infer<typeof OtpVerifyInput>;
export type MfaVerifyInput = z.infer<typeof MfaVerifyInput>;
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;
export type RegisterResult = z.infer<typeof RegisterResult>;

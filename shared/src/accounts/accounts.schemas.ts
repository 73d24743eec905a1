import { z } from 'zod';
import {
  BusinessTypeSlug,
  Email,
  EmploymentStatus,
  Money,
  MoneyInput,
  orNull,
  Password,
  Phone,
  Role,
  Shift,
  Timestamp,
} from '../common.js';
import { TokenPair } from '../auth/auth.schemas.js';
import { Store } from '../stores/stores.schemas.js';
import { ExpiryAlertDays } from '../inventory/inventory.schemas.js';
import { ScaleBarcodeConfig } from '../inventory/scale-barcode.schemas.js';
import { SmsProviderName } from '../integrations.js';

export const User = z
  .object({
    id: z.uuid(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    role: Role,
    store_id: z.uuid().nullable(),
    shift: Shift.nullable(),
    employment_status: EmploymentStatus,
    avatar_hue: z.int().nullable(),
    occupation: z.string().nullable(),
    can_refund: z.boolean(),
    can_discount: z.boolean(),
    can_view_reports: z.boolean(),
    can_manage_pharmacy: z.boolean().meta({ description: 'Batches, quarantine, recalls and the pharmacy registers' }),
    can_manage_credit: z.boolean().meta({ description: 'Credit limits, debt write-offs, removing customers' }),
    can_manage_stock: z.boolean().meta({ description: 'Prices, stock adjustments, removing products' }),
    can_manage_suppliers: z.boolean().meta({ description: 'Marking deliveries paid by hand, removing suppliers' }),
    is_active: z.boolean(),
    email_verified: z.boolean(),
    mfa_enabled: z.boolean(),
    password_change_required: z.boolean().meta({
      description:
        'The user still has a temporary password: an app should prompt them to set one (PATCH /accounts/me). Only a session signed in with that temporary password is limited to doing so',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const Organisation = z
  .object({
    id: z.uuid(),
    name: z.string(),
    legal_name: z.string().nullable(),
    tin: z.string().nullable(),
    business_type: BusinessTypeSlug,
    region: z.string().nullable(),
    district: z.string().nullable(),
    ward: z.string().nullable(),
    street: z.string().nullable(),
    address: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    logo: z.string().nullable(),
    sms_provider: SmsProviderName.nullable().meta({
      description: "The SMS gateway of the organisation's own account; null sends through the platform's",
    }),
    sms_sender_id: z.string().nullable(),
    sms_api_key_set: z.boolean().meta({ description: 'The key itself is write-only' }),
    sms_api_secret_set: z.boolean().meta({ description: 'The secret itself is write-only' }),
    aigateway_api_key_set: z.boolean().meta({ description: 'The key itself is write-only' }),
    timezone: z.string(),
    currency: z.string(),
    credit_terms_days: z.int(),
    expiry_alert_days: z.int().meta({ description: 'Default expiry alert window in days for batch-tracked products without their own' }),
    shift_shortfall_alert: Money.meta({
      description: 'A shift closing short by more than this (TZS) notifies the store; 0, the default, notifies of any shortfall',
    }),
    payment_match_window_min: z.int().meta({
      description:
        "Minutes an unverified mobile-money sale waits for the provider's report of its payment before it is flagged unmatched and the store told (default 60)",
    }),
    scale_barcodes: ScaleBarcodeConfig.meta({
      description: "The shop scales' EAN-13 label layouts (issue 51); the default, off, until the owner sets them",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Organisation' });
export type Organisation = z.infer<typeof Organisation>;

export const Profile = z
  .object({ user: User, organisation: orNull(Organisation), store: orNull(Store), stores: z.array(Store) })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof Profile>;

export const UpdateMeInput = z
  .object({
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().max(100),
    email: Email,
    occupation: z.string().trim().max(100),
    password: Password,
    current_password: z.string().min(1).max(200).meta({ description: 'Checked when given' }),
  })
  .partial()
  .meta({ id: 'UpdateMeInput' });
export type UpdateMeInput = z.infer<typeof UpdateMeInput>;

/** Five minutes to a week: shorter flags sales whose payment is merely slow; longer leaves the owner unaware for days. */
export const PaymentMatchWindow = z.int().min(5).max(10_080).meta({
  description: 'Minutes an unverified mobile-money sale waits for its payment before it is flagged unmatched (5 to 10080, a week)',
});

const optText = (max: number) => z.string().trim().max(max).nullable();
export const UpdateOrganisationInput = z
  .object({
    name: z.string().trim().min(1).max(150),
    legal_name: optText(200),
    tin: optText(30),
    business_type: BusinessTypeSlug,
    region: optText(100),
    district: optText(100),
    ward: optText(100),
    street: optText(200),
    address: optText(300),
    latitude: z.number().min(-90).max(90).nullable(),
    longitude: z.number().min(-180).max(180).nullable(),
    phone: Phone.nullable(),
    email: Email.nullable(),
    logo: z.url().max(1000).nullable(),
    sms_provider: SmsProviderName.nullable().meta({
      description: "Gateway of the organisation's own SMS account, for its customer messages: `beem`, `africastalking` or `nextsms`",
    }),
    sms_api_key: optText(500).meta({ description: "Beem: API key; Africa's Talking: API key; NextSMS: username" }),
    sms_api_secret: optText(500).meta({ description: "Beem: secret key; Africa's Talking: username; NextSMS: password" }),
    sms_sender_id: optText(11),
    aigateway_api_key: optText(500),
    timezone: z.string().refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Africa/Dar_es_Salaam'),
    credit_terms_days: z.int().min(0).max(365),
    expiry_alert_days: ExpiryAlertDays,
    shift_shortfall_alert: MoneyInput.meta({
      description: 'TZS: a shift closing short by more than this notifies the store (0 = any shortfall)',
    }),
    payment_match_window_min: PaymentMatchWindow,
    scale_barcodes: ScaleBarcodeConfig.meta({
      description: "How the shop's scales print EAN-13 labels: replaced whole (the till reads them offline after its next sync)",
    }),
  })
  .partial()
  .meta({ id: 'UpdateOrganisationInput' });
export type UpdateOrganisationInput = z.infer<typeof UpdateOrganisationInput>;

export const SwitchStoreInput = z.object({ store_id: z.uuid() }).meta({ id: 'SwitchStoreInput' });
export const SwitchStoreResult = z.object({ store: Store, tokens: TokenPair }).meta({ id: 'SwitchStoreResult' });
export type SwitchStoreResult = z.infer<typeof SwitchStoreResult>;

export const CreateUserInput = z
  .object({
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().max(100).default(''),
    phone: Phone,
    email: Email.optional(),
    role: Role.exclude(['admin']).default('staff'),
    store_id: z.uuid().optional().meta({ description: 'Defaults to the caller’s active store' }),
    can_refund: z.boolean().optional(),
    can_discount: z.boolean().optional(),
    can_view_reports: z.boolean().optional(),
    can_manage_pharmacy: z.boolean().optional(),
    can_manage_credit: z.boolean().optional(),
    can_manage_stock: z.boolean().optional(),
    can_manage_suppliers: z.boolean().optional(),
  })
  .meta({ id: 'CreateUserInput' });
export type CreateUserInput = z.infer<typeof CreateUserInput>;

export const AiCredits = z
  .object({
    used: z.number(),
    allocated: z.number(),
    remaining: z.number(),
    month: z.string().meta({ example: '2026-11' }),
    percentage: z.number().meta({ description: 'Share of the allocation used, 0-100' }),
  })
  .meta({ id: 'AiCredits' });
export type AiCredits = z.infer<typeof AiCredits>;

export const TotpStatus = z.object({ enabled: z.boolean(), pending: z.boolean() }).meta({ id: 'TotpStatus' });
export const TotpSetup = z
  .object({ secret: z.string(), otpauth_uri: z.string(), issuer: z.string(), account: z.string() })
  .meta({ id: 'TotpSetup' });
export const TotpCodeInput = z.object({ code: z.string().regex(/^\d{6}$/, 'must be 6 digits') }).meta({ id: 'TotpCodeInput' });
export const TotpDisableInput = z
  .object({ password: z.string().min(1).max(200), code: z.string().regex(/^\d{6}$/, 'must be 6 digits') })
  .meta({ id: 'TotpDisableInput' });

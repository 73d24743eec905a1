import type { BusinessTypeSlug, SmsProviderName } from '@duka/shared';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface OrganisationTable {
  id: string;
  name: string;
  legal_name: string | null;
  tin: string | null;
  business_type: Generated<BusinessTypeSlug>;
  region: string | null;
  district: string | null;
  ward: string | null;
  street: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  phone: string | null;
  email: string | null;
  logo: string | null;
  /** The organisation's own SMS gateway account, for its customer messages (null: the platform's). */
  sms_provider: SmsProviderName | null;
  sms_api_key_enc: string | null;
  sms_api_secret_enc: string | null;
  sms_sender_id: string | null;
  aigateway_api_key_enc: string | null;
  timezone: Generated<string>;
  currency: Generated<string>;
  credit_terms_days: Generated<number>;
  /** Default expiry alert window (days) of batch-tracked products without their own. */
  expiry_alert_days: Generated<number>;
  /** Cents: a shift closing short by more than this notifies the owner (0 = any shortfall). */
  shift_shortfall_alert: Generated<number>;
  /** Minutes an unverified mobile-money sale waits for its payment before the owner is told (migration 0035). */
  payment_match_window_min: Generated<number>;
  /** The shop scales' label layouts, JSON of shared `ScaleBarcodeConfig` (migration 0042); null: the default, off. */
  scale_barcodes: string | null;
  ai_credits_monthly: number | null;
  is_active: Generated<number>;
  version: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface UserTable {
  id: string;
  org_id: string | null;
  store_id: string | null;
  first_name: string;
  last_name: Generated<string>;
  phone: string | null;
  email: string | null;
  password_hash: string;
  pin_hash: string | null;
  role: string;
  shift: string | null;
  employment_status: Generated<string>;
  avatar_hue: number | null;
  occupation: string | null;
  can_refund: Generated<number>;
  can_discount: Generated<number>;
  can_view_reports: Generated<number>;
  can_manage_pharmacy: Generated<number>;
  can_manage_credit: Generated<number>;
  can_manage_stock: Generated<number>;
  can_manage_suppliers: Generated<number>;
  is_active: Generated<number>;
  must_change_password: Generated<number>;
  email_verified_at: number | null;
  failed_logins: Generated<number>;
  locked_until: number | null;
  totp_secret_enc: string | null;
  totp_pending_enc: string | null;
  totp_enabled: Generated<number>;
  totp_last_step: number | null;
  last_login_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface AiCreditUsageTable {
  org_id: string;
  month: string;
  used: Generated<number>;
  tokens: Generated<number>;
}

export type OrganisationRow = Selectable<OrganisationTable>;
export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;

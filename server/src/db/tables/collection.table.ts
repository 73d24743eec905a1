import type { CollectionProvider } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** A shop's own mobile-money collection account (issue 38); secrets sealed with ctx.keys. */
export interface CollectionAccountTable {
  org_id: string;
  id: string;
  /** null: every store of the organisation (a store's own account wins). */
  store_id: string | null;
  provider: CollectionProvider;
  label: string;
  /** The provider's credential object as JSON, sealed. */
  credentials_enc: string;
  /** The last 4 characters of the client id / API key: the only part ever shown. */
  credentials_hint: string;
  /** The secret of the callback URL, sealed. */
  callback_token_enc: string;
  test_mode: Generated<number>;
  active: Generated<number>;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

/** What a provider said was paid into a collection account, once per provider reference. Amount in cents. */
export interface ReceivedPaymentTable {
  org_id: string;
  id: string;
  account_id: string;
  store_id: string | null;
  provider: CollectionProvider;
  provider_ref: string;
  reference: string | null;
  amount: number;
  payer_phone: string | null;
  network: string | null;
  status: 'paid' | 'failed';
  received_at: number;
  /** The body as received, capped. */
  raw: string;
  matched_sale_id: string | null;
}

export type CollectionAccountRow = Selectable<CollectionAccountTable>;
export type ReceivedPaymentRow = Selectable<ReceivedPaymentTable>;

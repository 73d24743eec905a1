import type { CollectionProvider, MobileNetwork, PaymentMethod, PaymentRequestStatus } from '@duka/shared';
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
  /** When it was matched to its sale. */
  matched_at: number | null;
  /** The mobile network's own transaction id (the one in the customer's SMS), when the provider passes it on. */
  wallet_ref: string | null;
}

/** A sale held while the customer's phone is asked for the money (migration 0035). Amount in cents. */
export interface PaymentRequestTable {
  org_id: string;
  /** The till's client id for the sale: the sale's id once paid. */
  id: string;
  store_id: string;
  account_id: string;
  device_id: string | null;
  cashier_id: string | null;
  /**
   * The held sale, JSON (payments' `HeldSale`): the sale as the till sent it (CreateSaleInput), the
   * unit prices it was asked at (so the booked sale is what the customer paid) and the stock it holds.
   */
  sale_input: string;
  method: PaymentMethod;
  /** E.164. */
  phone: string;
  network: MobileNetwork;
  amount: number;
  status: PaymentRequestStatus;
  /** The provider's or our words for the current state. */
  detail: string | null;
  attempt: Generated<number>;
  /** What the provider was given for this attempt: `<id>`, then `<id>.<attempt>`. */
  reference: string;
  provider_ref: string | null;
  received_payment_id: string | null;
  sale_id: string | null;
  next_check_at: number | null;
  checks: Generated<number>;
  expires_at: number;
  created_at: number;
  updated_at: number;
}
export type PaymentRequestRow = Selectable<PaymentRequestTable>;

export type CollectionAccountRow = Selectable<CollectionAccountTable>;
export type ReceivedPaymentRow = Selectable<ReceivedPaymentTable>;

import type { PaymentMethod, PaymentVerification, PriceMode, SaleMethod, SaleSource, TransactionStatus } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** The sales ledger (design §3). Money in cents; discount_pct in basis points. */
export interface TransactionTable {
  id: string;
  org_id: string;
  store_id: string;
  /** Gapless per store. */
  number: number;
  receipt_number: string;
  client_receipt_number: string | null;
  status: TransactionStatus;
  /** The one method it was paid by, or `Mixed` for several (its parts: `transaction_payments`). */
  payment_method: SaleMethod;
  payment_reference: string | null;
  /** The wallet a mobile-money sale was paid from (E.164), when the till gave it. */
  payment_phone: string | null;
  /** Mobile money in a store with a collection account: checked against what the provider reported (migration 0035). */
  payment_verification: PaymentVerification | null;
  price_mode: Generated<PriceMode>;
  subtotal: number;
  discount_pct: Generated<number>;
  discount: number;
  tax: number;
  total: number;
  customer_id: string | null;
  customer_name: string | null;
  customer_phone: string | null;
  /** The buyer's TIN for the fiscal receipt, when given. */
  customer_tin: string | null;
  till_number: string | null;
  notes: string | null;
  cashier_id: string | null;
  source: Generated<SaleSource>;
  device_id: string | null;
  /** A pushed sale: the till's own time for it, as sent (`created_at` is when it is booked). */
  client_created_at: number | null;
  /** When the server received it; null for pushed sales recorded before it was kept. */
  received_at: number | null;
  /** Cents handed over on a cash sale, and the change the cashier gave back; null when not given. */
  cash_tendered: number | null;
  change_given: number | null;
  refund_reason: string | null;
  refunded_at: number | null;
  refunded_by: string | null;
  void_reason: string | null;
  voided_at: number | null;
  voided_by: string | null;
  /** The shift the sale was made in (issue 37). */
  shift_id: string | null;
  /** The shift its refund or void was made in, which may be a later one. */
  reversal_shift_id: string | null;
  /**
   * What its refunds of part gave back (issue 51, migration 0045): how many, the cents and the VAT
   * in them (Σ of its `refunds` rows and their lines). 0 for a sale refunded whole in one go, whose
   * refund is its status; reports net a still-sold sale's figures by them.
   */
  part_refunds: Generated<number>;
  refunded_total: Generated<number>;
  refunded_tax: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface TransactionLineTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  id: string;
  transaction_id: string;
  product_id: string;
  product_name: string;
  qty: number;
  unit_price: number;
  line_total: number;
  discount: Generated<number>;
  tax_rate: Generated<number>;
  tax: Generated<number>;
  /** Cost price in force at the sale, for profit. */
  cost_price: Generated<number>;
  /** Sold by the pack (issue 51): which pack, its name as sold and how many; `qty` is still the line's counts. Null: sold loose. */
  pack_id: string | null;
  pack_name: string | null;
  pack_qty: number | null;
}

/**
 * How a sale was paid, one row per part (issue 51, migration 0041): `amount` is what the part pays
 * towards the total (a cash part net of the change), so a sale's parts add up to its total.
 */
export interface TransactionPaymentTable {
  org_id: string;
  transaction_id: string;
  /** 1… in the order the cashier gave them. */
  seq: number;
  method: PaymentMethod;
  amount: number;
  reference: string | null;
  phone: string | null;
  /** The mobile-money part's, as the sale's `payment_verification`. */
  verification: PaymentVerification | null;
  /**
   * Cents of `amount` paid by the refund of the sale this one replaces (an exchange's mirrored part,
   * migration 0049): not new money, so a provider's report is awaited for `amount - mirrored` only.
   */
  mirrored: Generated<number>;
}

/**
 * A refund of part of a sale (issue 51, migration 0044), and the one that completes such a sale; a
 * sale refunded whole in one go is recorded on the sale alone. `amount` cents given back; `shift_id`
 * the drawer that paid it.
 */
export interface RefundTable {
  org_id: string;
  id: string;
  store_id: string;
  transaction_id: string;
  shift_id: string | null;
  reason: string;
  amount: number;
  created_by: string | null;
  created_at: number;
}

/** A sold line's part in a refund: `qty` counts back, `amount` cents and `tax` the VAT share given back. */
export interface RefundLineTable {
  org_id: string;
  refund_id: string;
  /** The `transaction_lines.id` refunded. */
  line_id: string;
  product_id: string;
  qty: number;
  amount: number;
  tax: number;
}

/** A refund's money per tender method (`refundTender` decides which). */
export interface RefundPartTable {
  org_id: string;
  refund_id: string;
  method: PaymentMethod;
  amount: number;
}

export type TransactionRow = Selectable<TransactionTable>;
export type TransactionPaymentRow = Selectable<TransactionPaymentTable>;
export type TransactionLineRow = Selectable<TransactionLineTable>;

/** A replayable answer to a money-creating POST sent with an Idempotency-Key (design §3). */
export interface IdempotencyKeyTable {
  user_id: string;
  key: string;
  route: string;
  request_hash: string;
  status: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

/** Returned pharmacy medicine held until inspected (design §3). */
export interface StockQuarantineTable {
  id: string;
  org_id: string;
  store_id: string;
  product_id: string;
  transaction_id: string;
  qty: number;
  status: Generated<'held' | 'released' | 'discarded'>;
  created_at: number;
  resolved_at: number | null;
}

/**
 * Public shapes of the till's reads and actions. Rows are the server's API shapes and inputs the
 * shared schemas (`@duka/shared`), less what the till fills in itself (ids), so the two cannot drift.
 */
import type {
  CreateSaleInput,
  CreditPayment,
  CreditPaymentPayload,
  CustomerUpsertPayload,
  MobileMoneyMethod,
  MobileNetwork,
  PaymentMethod,
  RefundLineInput,
  SaleLineInput,
  SalePaymentInput,
  StockAdjustPayload,
  Transaction,
} from '@duka/shared';
import type { SyncState } from './local/schema.js';

/**
 * A sale as the till shows it: the server's Transaction, whose store `number` and
 * `receipt_number` stay null until the sale has been synced. `client_receipt_number`
 * (`{store code}-{till code}-{till seq}`) is what the till printed. `fiscal` (the TRA fiscal
 * receipt of a fiscalising store) is null until the server's copy of the sale has been pulled, as
 * are `shift_id` and `reversal_shift_id` (the shifts the server booked it to), absent until then.
 */
export type Receipt = Omit<Transaction, 'number' | 'receipt_number' | 'shift_id' | 'reversal_shift_id' | 'payments'> & {
  /** The sale's parts (issue 51), as the server answers them; a receipt the till kept before split tender has none. */
  payments?: Transaction['payments'];
  number: number | null;
  receipt_number: string | null;
  shift_id?: string | null;
  reversal_shift_id?: string | null;
  /** `pending` until the server has it, `synced` after, `rejected` if it refused it. */
  sync_state: SyncState;
};

/**
 * A till's sale line: a product and how many, in its unit (`0.5` kg; whole for a piece product).
 * By the pack (`pack_id`, a scanned pack's `scanned_pack.id`): `qty` counts packs. From a scale
 * label: `scale_barcode` with the product and qty `productByCode` read from it (issue 51; these
 * need a server that speaks sync protocol 2).
 */
export type SaleLine = Required<Pick<SaleLineInput, 'product_id' | 'qty'>> & Pick<SaleLineInput, 'pack_id' | 'scale_barcode'>;

/**
 * A sale to ring up: the server's sale input; the till gives the sale its id. It is paid one way
 * (`payment_method`) or several (`payments`, issue 51: docs/pos.md "Split tender"), as the server's.
 */
export type SellInput = Omit<CreateSaleInput, 'id' | 'lines' | 'payments' | 'payment_method'> & {
  lines: SaleLine[];
} & ({ payment_method: PaymentMethod; payments?: undefined } | { payments: SalePaymentInput[]; payment_method?: PaymentMethod });

/**
 * A sale whose payment is asked from the customer's phone (a push): what `sell` takes, paid from a
 * mobile-money wallet, and the number to ask. The till gives the sale its id, which is the
 * request's id and, once paid, the booked sale's.
 */
export type AskMobilePaymentInput = Omit<
  CreateSaleInput,
  'id' | 'lines' | 'payments' | 'payment_method' | 'payment_reference' | 'payment_phone' | 'cash_tendered'
> & {
  lines: SaleLine[];
  payment_method: MobileMoneyMethod;
  /** The customer's number, in any form `parseTzMobile` takes (`0754 123 456`, `+255754123456`, `255754123456`). */
  phone: string;
  /** The customer's wallet when it is not the method's own network (numbers are portable). */
  network?: MobileNetwork;
};

/** A failed, expired or cancelled push asked again, optionally of another number or wallet. */
export interface RetryMobilePaymentInput {
  phone?: string;
  network?: MobileNetwork;
}

/**
 * A refund's options (issue 51): `lines` refunds only these lines, these quantities, in the
 * product's unit (`{ product_id, qty: 0.25 }` of a 1.25 kg line; `pack_id` names a line sold by the
 * pack). Absent: the whole sale, or all that is left of one refunded in part. Needs a server that
 * speaks sync protocol 2 (docs/pos.md "Refunding part of a sale").
 */
export interface RefundOptions {
  lines?: RefundLineInput[];
}

/** A new customer: the `customer.upsert` payload; the till gives the customer its id. */
export type CreateCustomerInput = Omit<CustomerUpsertPayload, 'id'>;

/** A payment against a customer's credit: the `credit.payment` payload; the till gives it its id. */
export type CreditPaymentInput = Omit<CreditPaymentPayload, 'id'>;

/** A credit payment as queued: its id and how it was spread over the customer's tabs (oldest first). */
export type CreditPaymentReceipt = Pick<CreditPayment, 'id' | 'customer_id' | 'amount' | 'allocations'> & {
  /** What the customer still owes after it, TZS. */
  outstanding_balance: number;
};

/** A stock adjustment: exactly the `stock.adjust` payload. */
export type StockAdjustInput = StockAdjustPayload;

export interface ListOptions {
  /** At most this many (default 50). */
  limit?: number;
}

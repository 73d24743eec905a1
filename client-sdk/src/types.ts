/** Public shapes of the till's reads and actions. Rows are the server's API shapes (`@duka/shared`). */
import type { PaymentMethod, Transaction } from '@duka/shared';
import type { SyncState } from './local/schema.js';

/**
 * A sale as the till shows it: the server's Transaction, whose store `number` and
 * `receipt_number` stay null until the sale has been synced. `client_receipt_number`
 * (`{store code}-{till code}-{till seq}`) is what the till printed.
 */
export type Receipt = Omit<Transaction, 'number' | 'receipt_number'> & {
  number: number | null;
  receipt_number: string | null;
  /** `pending` until the server has it, `synced` after, `rejected` if it refused it. */
  sync_state: SyncState;
};

export interface SaleLine {
  product_id: string;
  /** Positive whole units. */
  qty: number;
}

export interface SellInput {
  lines: SaleLine[];
  payment_method: PaymentMethod;
  payment_reference?: string;
  /** Percent of the subtotal (needs the discount permission). */
  discount_pct?: number;
  /** Required for `Credit`. */
  customer_id?: string;
  customer_name?: string;
  customer_phone?: string;
  till_number?: string;
  notes?: string;
  /** `wholesale` only in wholesale and retail-wholesale shops. */
  price_mode?: 'retail' | 'wholesale';
}

export interface CreateCustomerInput {
  name: string;
  phone?: string;
  email?: string;
  /** TZS, 0 = no limit. */
  credit_limit?: number;
  notes?: string;
}

export interface CreditPaymentInput {
  customer_id: string;
  /** TZS, more than 0 and at most what the customer owes. */
  amount: number;
  method: 'Cash' | 'M-Pesa' | 'Tigo Pesa' | 'Bank';
  reference?: string;
  note?: string;
}

/** A credit payment as queued: its id and how it was spread over the customer's tabs (oldest first). */
export interface CreditPaymentReceipt {
  id: string;
  customer_id: string;
  amount: number;
  allocations: Array<{ tab_id: string; amount: number }>;
  /** What the customer still owes after it, TZS. */
  outstanding_balance: number;
}

export interface StockAdjustInput {
  product_id: string;
  /** Units added (positive) or taken (negative); never 0. */
  qty_change: number;
  /** e.g. `damaged`, `count`, `received`. */
  reason: string;
  note?: string;
}

export interface ListOptions {
  /** At most this many (default 50). */
  limit?: number;
}

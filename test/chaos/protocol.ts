/** What the chaos run and its till processes say to each other over IPC. */
import type { LineBatchInput } from '@duka/shared';

export interface WorkerSale {
  id: string;
  client_receipt_number: string;
  /** ISO time the till made it. */
  created_at: string;
  payment_method: string;
  total: number;
  /**
   * `qty` in the line's unit (a pack line's in its pieces), `counts` what it took from stock (absent: `qty`) (a
   * piece, or a thousandth of a measured unit); `pack_id` for a line sold by the pack, its
   * `unit_price` one pack's price. `batches`: the lots a pharmacy till sent with the line (its own
   * FEFO), absent when it sent none.
   */
  lines: Array<{
    product_id: string;
    qty: number;
    counts?: number;
    unit_price: number;
    pack_id?: string;
    batches?: LineBatchInput[];
  }>;
  /** How it was paid, method → TZS, as the till's receipt says (a cash part net of its change). */
  parts?: Record<string, number>;
  /** Parts of it the back office refunded over REST (docs/pos.md "Refunding part of a sale"), in order. */
  refunds?: WorkerRefund[];
  /** A pharmacy sale sent with a prescription: its patient's name. */
  patient?: string;
  reversed: null | 'refunded' | 'void';
  /** A credit sale's customer. */
  customer_id?: string;
  /** A credit payment was made against it: the till no longer refunds or voids it. */
  locked?: boolean;
  /** The store's receipt number the till's replica shows after the last pull (set in the report). */
  receipt_number?: string | null;
}

/** A refund of part of a sale: the money the shared rule gives back for it, and the counts that came back. */
export interface WorkerRefund {
  /** TZS (`refundShare`). */
  amount: number;
  lines: Array<{ product_id: string; pack_id?: string; counts: number }>;
}

/** A credit payment the till took. */
export interface WorkerPayment {
  /** Unique in the run: the server keeps it, so the check finds the payment by it. */
  reference: string;
  customer_id: string;
  /** TZS. */
  amount: number;
  /** Cash or M-Pesa (absent: not told). */
  method?: string;
}

export interface TillReport {
  deviceId: string;
  sales: WorkerSale[];
  payments: WorkerPayment[];
  /** What each customer owes as the replica shows it after the final pull, TZS. */
  customers: Record<string, number>;
  counts: {
    sales: number;
    lotRefusals: number;
    refunds: number;
    /** Sales the till's back office refunded part of over REST. */
    partRefunds?: number;
    voids: number;
    payments: number;
    paymentsRefused: number;
    relogins: number;
    syncErrors: number;
    conflictEvents: number;
    rejectedEvents: number;
  };
  /** What the replica shows per product after the final pull. */
  replica: Record<string, { stock: number | null; selling_price: number | null }>;
  pending: number;
  rejected: Array<{ type: string; error: string }>;
  /** The till's own sales its replica shows as synced with a store number. */
  syncedOnReplica: number;
}

export type ToTill =
  | {
      type: 'start';
      baseUrl: string;
      dbPath: string;
      deviceName: string;
      identifier: string;
      password: string;
      seed: number;
      sales: number;
      durationMs: number;
      drainTimeoutMs: number;
      productIds: string[];
      /** Behind a load balancer without stickiness: a new connection (so maybe another server) for every request. */
      connectionPerRequest?: boolean;
      /** A pharmacy till: it sells these medicines, allocating lots itself for most sales. */
      pharmacy?: PharmacyTill;
    }
  | { type: 'go' }
  | { type: 'drain' }
  | { type: 'report' }
  | { type: 'exit' };

export type FromTill =
  | { type: 'ready' }
  | { type: 'progress'; sales: number }
  | { type: 'sold'; sales: number }
  | { type: 'drained' }
  | { type: 'report'; report: TillReport }
  | { type: 'failed'; error: string };

export interface PharmacyTill {
  /** The medicines' schedules: a `pom` or `controlled` line gets a prescription on its sale. */
  schedules: Record<string, string>;
}

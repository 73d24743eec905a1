/** What the chaos run and its till processes say to each other over IPC. */
import type { LineBatchInput } from '@duka/shared';

export interface WorkerSale {
  id: string;
  client_receipt_number: string;
  /** ISO time the till made it. */
  created_at: string;
  payment_method: string;
  total: number;
  /** `batches`: the lots a pharmacy till sent with the line (its own FEFO), absent when it sent none. */
  lines: Array<{ product_id: string; qty: number; unit_price: number; batches?: LineBatchInput[] }>;
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

/** A credit payment the till took. */
export interface WorkerPayment {
  /** Unique in the run: the server keeps it, so the check finds the payment by it. */
  reference: string;
  customer_id: string;
  /** TZS. */
  amount: number;
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

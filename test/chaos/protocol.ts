/** What the chaos run and its till processes say to each other over IPC. */

export interface WorkerSale {
  id: string;
  client_receipt_number: string;
  /** ISO time the till made it. */
  created_at: string;
  payment_method: string;
  total: number;
  lines: Array<{ product_id: string; qty: number; unit_price: number }>;
  reversed: null | 'refunded' | 'void';
}

export interface TillReport {
  deviceId: string;
  sales: WorkerSale[];
  counts: { sales: number; refunds: number; voids: number; relogins: number; syncErrors: number; conflictEvents: number; rejectedEvents: number };
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

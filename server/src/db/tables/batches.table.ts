import type { BatchMovementKind, BatchStatus } from '@duka/shared';
import type { Selectable } from 'kysely';

/**
 * Units of a product in one store from one lot (issue 14). One main row per store, product and lot;
 * a quarantine row (`source_batch_id` set) holds refunded units until release or disposal. Only
 * `sellable` rows count as stock. `expiry_date` is `YYYY-MM-DD`; money in cents.
 */
export interface BatchTable {
  id: string;
  org_id: string;
  store_id: string;
  product_id: string;
  lot_number: string;
  expiry_date: string;
  qty_on_hand: number;
  cost_price: number;
  status: BatchStatus;
  supplier_id: string | null;
  delivery_id: string | null;
  source_batch_id: string | null;
  transaction_id: string | null;
  received_at: number;
  /** When the expiry alert for this batch went out (the daily job sends one per batch). */
  expiry_alerted_at: number | null;
  created_at: number;
  updated_at: number;
}

/**
 * One change to one batch. `qty` is the signed change of the row's `qty_on_hand` (0 for a status or
 * lot/expiry change), `qty_after` the row's units after it, `stock_change` the signed change of the
 * product's sellable stock (a recall of 10 sellable units: qty 0, stock_change −10), so the running
 * sum of `stock_change` per store and product is its stock. `details` is JSON (a correction's
 * before and after).
 *
 * A `dispensed` line is also the sale's record of the lot (issue 39: a dispensed lot is written
 * once): `transaction_id` names the sale, `-qty` the units its line took, and `lot_number` and
 * `expiry_date` the lot as sold, which a later correction of the batch leaves as printed (null on
 * every other kind).
 */
export interface BatchMovementTable {
  id: string;
  org_id: string;
  store_id: string;
  product_id: string;
  batch_id: string;
  kind: BatchMovementKind;
  qty: number;
  qty_after: number;
  stock_change: number;
  status_from: BatchStatus | null;
  status_to: BatchStatus | null;
  transaction_id: string | null;
  delivery_id: string | null;
  recall_id: string | null;
  reason: string | null;
  method: string | null;
  witness: string | null;
  note: string | null;
  details: string | null;
  user_id: string | null;
  created_at: number;
  lot_number: string | null;
  expiry_date: string | null;
}

export interface RecallTable {
  id: string;
  org_id: string;
  product_id: string;
  lot_number: string;
  reason: string;
  batch_count: number;
  units: number;
  user_id: string | null;
  created_at: number;
}

export type BatchRow = Selectable<BatchTable>;
export type BatchMovementRow = Selectable<BatchMovementTable>;

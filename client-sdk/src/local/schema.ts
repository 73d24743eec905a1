/**
 * The till's local replica: the server's rows a till holds (design §4), kept as the JSON the server
 * sent plus the columns local reads filter on, and the device's mutation queue. Money columns are
 * integer cents, like the server's tables; `data` keeps the API shape (TZS with 2 decimals).
 */
import type { MutationStatus, MutationType } from '@duka/shared';
import type { Generated } from 'kysely';

/** Key-value settings: device id, till code, tokens, pull cursor, counters. */
export interface MetaTable {
  key: string;
  value: string;
}

/** Singletons and entities without a table of their own (organisation, store, notes). */
export interface RowTable {
  entity: string;
  id: string;
  data: string;
}

export interface CategoryTable {
  id: string;
  name: string;
  sort_order: number;
  data: string;
}

export interface ProductTable {
  id: string;
  name: string;
  sku: string | null;
  barcode: string | null;
  category_id: string | null;
  is_active: number;
  /** A medicine's generic name, searched like `name` (local migration 0003). */
  generic_name: string | null;
  data: string;
}

/** The till's store's level of a product (entity `stock`), moved locally by sales and adjustments. */
export interface StockTable {
  product_id: string;
  qty: number;
}

export interface CustomerTable {
  id: string;
  name: string;
  phone: string | null;
  /** Outstanding balance, cents. */
  outstanding: number;
  data: string;
}

export interface CreditTabTable {
  id: string;
  customer_id: string;
  created_at: string;
  data: string;
}

/** Where a transaction row stands: made here and not yet accepted, the server's, or refused by it. */
export type SyncState = 'pending' | 'synced' | 'rejected';

export interface TransactionTable {
  id: string;
  created_at: string;
  client_receipt_number: string | null;
  number: number | null;
  receipt_number: string | null;
  status: string;
  sync_state: SyncState;
  data: string;
}

export interface NotificationTable {
  id: string;
  created_at: string;
  is_read: number;
  data: string;
}

/** `pending` until the server answers, then what it made of the mutation. */
export type QueueState = 'pending' | MutationStatus;

/** The device's mutations, FIFO by `seq`; acknowledged ones are kept 7 days (design §4, backups). */
export interface QueueTable {
  id: string;
  seq: number;
  type: MutationType;
  payload: string;
  created_at: string;
  state: QueueState;
  error_code: string | null;
  error_message: string | null;
  result: string | null;
  /** Epoch ms when the server answered for it. */
  acked_at: number | null;
  /** How to take the local effects back if the server rejects it (JSON, see queue.ts). */
  undo: string | null;
}

export interface ConflictTable {
  id: string;
  mutation_id: string;
  seq: number;
  type: string;
  transaction_id: string | null;
  kind: string;
  message: string;
  product_id: string | null;
  created_at: string;
}

/**
 * One of the store's batches (entity `batch`, data = the shared `Batch`). `qty_on_hand` is the
 * column's, moved by this till's own sales until the server's row arrives; `received_at` is epoch
 * ms, FEFO's tie-break.
 */
export interface BatchTable {
  id: string;
  product_id: string;
  lot_number: string;
  /** `YYYY-MM-DD`. */
  expiry_date: string;
  status: string;
  qty_on_hand: number;
  received_at: number;
  data: string;
}

/** The ADDO-permitted list as last fetched whole; its version is meta `addo_list_version`. */
export interface AddoListTable {
  id: string;
  /** `addoMatchKey` of the entry. */
  match_key: string;
  /** The shared `AddoMedicine`. */
  data: string;
}

/** Bootstrap pages land here first and replace the replica in one local transaction at the end. */
export interface BootstrapRowTable {
  pos: Generated<number>;
  entity: string;
  id: string;
  data: string;
}

/** A shift opened on this till (data = the shared `TillShift`); `opening_float` in cents. */
export interface ShiftTable {
  id: string;
  cashier_id: string;
  status: string;
  opening_float: number;
  data: string;
}

/** Money this till moved in a shift (cents), the X report's input. */
export interface ShiftMovementTable {
  id: string;
  shift_id: string;
  kind: string;
  method: string;
  amount: number;
  /** How many sales (or refunds) the row counts: 0 for a split sale's parts after its first (migration 0007). */
  count: Generated<number>;
  created_at: string;
}

export interface LocalDatabase {
  meta: MetaTable;
  rows: RowTable;
  categories: CategoryTable;
  products: ProductTable;
  stock: StockTable;
  customers: CustomerTable;
  credit_tabs: CreditTabTable;
  transactions: TransactionTable;
  notifications: NotificationTable;
  queue: QueueTable;
  conflicts: ConflictTable;
  bootstrap_rows: BootstrapRowTable;
  batches: BatchTable;
  addo_list: AddoListTable;
  shifts: ShiftTable;
  shift_movements: ShiftMovementTable;
}

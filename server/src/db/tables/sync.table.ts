import type { MutationStatus } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** A till. `last_seq` is the highest mutation seq applied (kept as long as the device exists). */
export interface DeviceTable {
  id: string;
  org_id: string;
  store_id: string;
  registered_by: string | null;
  name: string;
  till_code: string;
  last_seq: Generated<number>;
  last_seen_at: number | null;
  /** The till's time of the last sale booked at its own time: a later sale dated well before it means the till's clock went back. */
  last_sale_at: number | null;
  created_at: number;
  /** When an owner retired the till (issue 54): its push and pull are refused, its id cannot register again. */
  retired_at: number | null;
}

/** What became of each pushed mutation, replayed for a duplicate. */
export interface SyncMutationTable {
  /** The organisation, as its parent's (issue 36): a row placed by tenant finds its home without a join. */
  org_id: string;
  device_id: string;
  seq: number;
  id: string;
  type: string;
  /** A duplicate is answered from this row, never stored as one. */
  status: Exclude<MutationStatus, 'duplicate'>;
  error_code: string | null;
  error_message: string | null;
  /** JSON of the MutationResult's `result` and `conflicts`. */
  result: string | null;
  created_at: number;
}

export interface SyncConflictTable {
  id: string;
  org_id: string;
  store_id: string;
  device_id: string | null;
  mutation_id: string | null;
  transaction_id: string | null;
  kind: string;
  product_id: string | null;
  message: string;
  /** JSON. */
  detail: string | null;
  resolved: Generated<number>;
  resolution_note: string | null;
  resolved_by: string | null;
  resolved_at: number | null;
  created_at: number;
}

export type DeviceRow = Selectable<DeviceTable>;
export type SyncConflictRow = Selectable<SyncConflictTable>;

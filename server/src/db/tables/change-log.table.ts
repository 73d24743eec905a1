/** The per-organisation change log tills pull from (db/change-log.ts writes and reads it). */
export type ReplicatedEntity =
  | 'organisation'
  | 'store'
  | 'category'
  | 'product'
  | 'stock'
  | 'customer'
  | 'credit_tab'
  | 'transaction'
  | 'note'
  | 'notification';

export interface ChangeLogTable {
  org_id: string;
  version: number;
  entity: ReplicatedEntity;
  entity_id: string;
  op: 'upsert' | 'delete';
  /** Set for store-scoped entities, so a till pulls only its own store's rows. */
  store_id: string | null;
  created_at: number;
}

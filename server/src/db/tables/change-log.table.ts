import type { ChangeOp, SyncEntity } from '@duka/shared';

/** The per-organisation change log tills pull from (db/change-log.ts writes and reads it). */
export interface ChangeLogTable {
  org_id: string;
  version: number;
  entity: SyncEntity;
  entity_id: string;
  op: ChangeOp;
  /** Set for store-scoped entities, so a till pulls only its own store's rows. */
  store_id: string | null;
  created_at: number;
}

/** What the sync steps share. */
import type { AuthSession } from '../auth.js';
import type { TillEvents, TypedEmitter } from '../events.js';
import type { LocalDb } from '../local/db.js';

export interface SyncCtx {
  db: LocalDb;
  auth: AuthSession;
  events: TypedEmitter<TillEvents>;
  now: () => number;
  deviceId: string;
  deviceName: string;
  /** Mutations a push carries at most (the server takes 500). */
  pushBatchSize: number;
  pullPageSize: number;
  bootstrapPageSize: number;
}

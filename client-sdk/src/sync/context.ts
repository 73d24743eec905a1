/** What the sync steps share. */
import type { AuthSession } from '../auth.js';
import type { TillEvents, TypedEmitter } from '../events.js';
import type { LocalDb } from '../local/db.js';

export interface SyncCtx {
  db: LocalDb;
  auth: AuthSession;
  events: TypedEmitter<TillEvents>;
  now: () => number;
  /** The server's time in an answer to a request sent at `sentAt` (the till's clock); absent from an older server. */
  serverTime: (serverTime: string | undefined, sentAt: number) => void;
  deviceId: string;
  deviceName: string;
  /** Mutations a push carries at most (the server takes 500). */
  pushBatchSize: number;
  pullPageSize: number;
  bootstrapPageSize: number;
}

/** What the sync steps share. */
import type { AuthSession } from '../auth.js';
import type { TillEvents, TypedEmitter } from '../events.js';
import type { LocalDb } from '../local/db.js';
import type { BootstrapPageStager } from '../local/storage.js';

export interface SyncCtx {
  db: LocalDb;
  auth: AuthSession;
  events: TypedEmitter<TillEvents>;
  now: () => number;
  /** The server's time in an answer to a request sent at `sentAt` (the till's clock); absent from an older server. */
  serverTime: (serverTime: string | undefined, sentAt: number) => void;
  /**
   * Sales rung up at or after this time (the till's clock) had their push sent as they were rung up:
   * when the server last answered a till that syncs on its own. Null when that cannot be said: the
   * till syncs when told (a push says nothing of when its sales were rung up) or never heard the server.
   */
  pushedSince: () => number | null;
  deviceId: string;
  deviceName: string;
  /** Mutations a push carries at most (the server takes 500). */
  pushBatchSize: number;
  pullPageSize: number;
  bootstrapPageSize: number;
  /** The storage stages bootstrap pages itself (a browser's worker): the page's bytes go to it undecoded. */
  stagePage?: BootstrapPageStager;
}

/** The till's observable sync status (PowerSync's SyncStatus, for a till). */
import type { TillErrorCode } from './errors.js';

export interface TillStatus {
  /** The server answered the last request (false until it first does). */
  online: boolean;
  /** The websocket for pokes is connected (with `autoSync` and `realtime`). */
  live: boolean;
  /** A sync is running. */
  syncing: boolean;
  /** Mutations waiting to be pushed. */
  pending: number;
  /** Mutations the server refused (kept; see `till.rejected()`). */
  rejected: number;
  /**
   * Pending mutations waiting for a server that speaks a newer sync protocol (a decimal, pack,
   * scale-label or split sale queued for a server found older, issue 51): they go once it does.
   */
  heldForServer: number;
  /** The sync protocol version the server last answered (null before the till heard one). */
  serverProtocol: number | null;
  /** The replica holds a full snapshot (a pull cursor). */
  bootstrapped: boolean;
  /** No usable tokens: syncing waits for `login`. */
  authRequired: boolean;
  /** The server refused this till's sync protocol version: syncing has stopped until the till is updated. */
  updateRequired: boolean;
  /** ISO time of the last sync that finished without error. */
  lastSyncedAt: string | null;
  /** The last sync's error, cleared by a good sync. */
  lastError: { code: TillErrorCode | string; message: string; at: string } | null;
  /** ISO time of the next automatic attempt, when one is scheduled. */
  nextSyncAt: string | null;
  /**
   * The server's clock less the till's, ms, learned at the last push or pull (null before one).
   * Sales are stamped with the till's clock: one this far off is booked by the server at its receipt time.
   */
  clockOffsetMs: number | null;
  /** The till's clock is more than 5 minutes off the server's (`CLOCK_TOLERANCE_MS`): ask the cashier to set it (a `clock` event says so). */
  clockWrong: boolean;
}

export const initialStatus = (): TillStatus => ({
  online: false,
  live: false,
  syncing: false,
  pending: 0,
  rejected: 0,
  heldForServer: 0,
  serverProtocol: null,
  bootstrapped: false,
  authRequired: false,
  updateRequired: false,
  lastSyncedAt: null,
  lastError: null,
  nextSyncAt: null,
  clockOffsetMs: null,
  clockWrong: false,
});

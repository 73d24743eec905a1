/**
 * What the main thread and the SQLite worker say to each other. Requests carry an id and are
 * answered in the order they came, one at a time: the worker owns the one connection, the main
 * thread's driver decides what runs inside a transaction. Everything here survives structured
 * cloning (bigints included), so any `postMessage` carries it: a `Worker`, a worker's `self`, a
 * `MessagePort` (which is how the tests drive the worker's half in Node).
 */
import type { PageHead, StagedPage } from '../local/storage.js';

/**
 * Anything that posts messages and hears them: `Worker`, a worker's `self`, `MessagePort`. Typed
 * loosely (`event: any`) so the DOM's `Worker` and Node's `MessagePort` both fit without the SDK's
 * types depending on the DOM library.
 */
export interface PortLike {
  postMessage(message: unknown): void;
  /** `transfer`: buffers handed over rather than copied (a bootstrap page's bytes). */
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: string, listener: (event: any) => void): void;
  removeEventListener(type: string, listener: (event: any) => void): void;
  /** A `MessagePort` only delivers once started. */
  start?(): void;
}

export type SqliteRequest =
  /** Open the database file `name` (the worker decides where: OPFS in a browser). */
  | { id: number; op: 'open'; name: string }
  | { id: number; op: 'exec'; sql: string; params: readonly unknown[] }
  /**
   * Several statements in one message, run in order, answered with each one's result; the first
   * failure stops the batch (what ran before it stays, as the caller's transaction decides). A step
   * without `sql` runs the previous step's statement again with its own parameters: one statement
   * for many rows without sending its text each time.
   */
  | { id: number; op: 'batch'; steps: Step[] }
  | { id: number; op: 'close' };

export interface Step {
  sql?: string;
  params: readonly unknown[];
}

export interface ExecResult {
  rows: Record<string, unknown>[];
  /** For a statement that returns no columns: rows it changed and the last rowid, as Kysely wants them. */
  numAffectedRows?: bigint;
  insertId?: bigint;
}

/**
 * Why a request failed. `unavailable`: the worker cannot keep a database at all (no OPFS, no
 * sync access handles); `busy`: the files are held by another tab's worker; `sql`: the statement
 * itself failed.
 */
export type FailureKind = 'unavailable' | 'busy' | 'sql';

export type SqliteResponse =
  | { id: number; ok: true; result?: ExecResult; results?: ExecResult[] }
  /** `step`: which of a batch's steps failed. */
  | { id: number; ok: false; kind: FailureKind; message: string; sqliteCode?: string; step?: number };

/**
 * A bootstrap page staged in the worker (`replica/stage-page.ts`), in two requests: `decode` hands
 * over its bytes (transferred, not copied) and is answered with the page's head; `stage` (same id)
 * inserts its rows, between the till's transactions. Kept apart from `SqliteRequest` (ids are
 * strings, `stage:<n>`) so the driver's link never mistakes their answers for its own.
 */
export type StageRequest = { id: string; op: 'decode'; page: ArrayBuffer } | { id: string; op: 'stage' };

export type StageResponse =
  | { id: string; ok: true; head?: PageHead; staged?: StagedPage }
  | { id: string; ok: false; kind: 'sql'; message: string; sqliteCode?: string };

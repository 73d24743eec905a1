/**
 * Where the replica lives: the storage seam. A host hands the till a Kysely dialect over its SQLite
 * (better-sqlite3 in Node, `node/storage.ts`; SQLite WASM in a browser; `:memory:` in a test) and,
 * when the engine wants it, something to run while the till is idle. What is particular to one
 * engine (pragmas, the statement cache, WAL checkpoints) stays inside its storage, never in the till.
 */
import type { Dialect, Kysely } from 'kysely';

export interface TillStorage {
  /** A Kysely dialect over one SQLite database. The till keeps a single connection's worth of work: one transaction at a time. */
  dialect: Dialect;
  /** Run once the till's writes have paused for a moment (better-sqlite3 folds its WAL into the file here). */
  whenIdle?: (db: Kysely<any>) => Promise<void>;
}

/** A dialect alone is a storage with nothing to do when idle. */
export const asStorage = (s: Dialect | TillStorage): TillStorage => ('createDriver' in s ? { dialect: s } : s);

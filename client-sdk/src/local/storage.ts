/**
 * Where the replica lives: the storage seam. A host hands the till a Kysely dialect over its SQLite
 * (better-sqlite3 in Node, SQLite WASM in a browser, `:memory:` in a test) and, when the engine
 * wants it, something to run while the till is idle. What is particular to one engine (pragmas,
 * the statement cache, WAL checkpoints) stays inside its storage, never in the till.
 */
import Database from 'better-sqlite3';
import { cachingStatements } from '@duka/shared';
import { type Dialect, type Kysely, SqliteDialect, sql } from 'kysely';

export interface TillStorage {
  /** A Kysely dialect over one SQLite database. The till keeps a single connection's worth of work: one transaction at a time. */
  dialect: Dialect;
  /** Run once the till's writes have paused for a moment (better-sqlite3 folds its WAL into the file here). */
  whenIdle?: (db: Kysely<any>) => Promise<void>;
}

/** A dialect alone is a storage with nothing to do when idle. */
export const asStorage = (s: Dialect | TillStorage): TillStorage => ('createDriver' in s ? { dialect: s } : s);

/**
 * The Node default: one better-sqlite3 file (created if missing; `:memory:` for a throwaway till).
 * WAL with `synchronous=FULL`: a sale the till has shown as done survives a power cut.
 */
export function sqliteFile(path: string): TillStorage {
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  // No checkpoint inside a sale's commit (it would copy pages and fsync the main file, the
  // slowest sale of the day): the till checkpoints when it is idle.
  sqlite.pragma('wal_autocheckpoint = 0');
  return {
    dialect: new SqliteDialect({ database: cachingStatements(sqlite) }),
    // PASSIVE: copy what it can without waiting on a reader or writer.
    whenIdle: async (db) => void (await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(db)),
  };
}

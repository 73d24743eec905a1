/** Opening the replica: one better-sqlite3 file through Kysely, durable like the server's SQLite. */
import Database from 'better-sqlite3';
import { cachingStatements } from '@duka/shared';
import { Kysely, SqliteDialect, sql, type Transaction } from 'kysely';
import type { LocalDatabase } from './schema.js';

export type LocalDb = Kysely<LocalDatabase>;
export type LocalTrx = Transaction<LocalDatabase>;
/** Either the database or a transaction on it: read helpers take both. */
export type LocalExec = LocalDb | LocalTrx;

/**
 * WAL with `synchronous=FULL`: a sale the till has shown as done survives a power cut. One
 * connection, so Kysely runs the till's transactions one after the other.
 */
export function openLocalDb(path: string): LocalDb {
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  // No checkpoint inside a sale's commit (it would copy pages and fsync the main file, the
  // slowest sale of the day): the till checkpoints when it is idle (`checkpoint`).
  sqlite.pragma('wal_autocheckpoint = 0');
  return new Kysely<LocalDatabase>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
}

/** Copy the WAL into the main file without waiting on anyone; the till calls it when idle. */
export async function checkpoint(db: LocalDb): Promise<void> {
  await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(db);
}

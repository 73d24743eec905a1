/** The replica's default storage in Node: one better-sqlite3 file. */
import { cachingStatements } from '@duka/shared';
import Database from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import type { TillStorage } from '../local/storage.js';
import { idleCheckpointer } from './idle-checkpoint.js';

/**
 * One better-sqlite3 file (created if missing; `:memory:` for a throwaway till).
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
  const dialect = new SqliteDialect({ database: cachingStatements(sqlite) });
  // A database in memory (or an unnamed temporary one) has no file another connection could open.
  if (sqlite.memory || !sqlite.name) return { dialect };
  const checkpoint = idleCheckpointer(sqlite.name);
  return { dialect, whenIdle: () => checkpoint.run(), close: () => checkpoint.close() };
}

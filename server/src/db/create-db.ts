/**
 * Open the database: embedded SQLite by default, PostgreSQL when given a postgres:// URL.
 * SQLite runs in WAL mode with synchronous=FULL so an acknowledged sale survives a power cut.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';
import type { DialectName } from './dialect.js';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Checks the database answers; used by the readiness probe. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres:// URL; when absent, SQLite at `sqliteFile`. */
  url?: string;
  /** A file path or `:memory:`. */
  sqliteFile?: string;
  poolSize?: number;
  /** Told when an idle Postgres connection fails (e.g. the server restarted); the pool replaces it. */
  onConnectionError?: (err: Error) => void;
}

// bigint (20) and numeric (1700, e.g. SUM of bigint) come back as numbers: every value we store
// (epoch ms, cents, counters) fits in 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export function createDb(opts: DbOptions): DbHandle {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10, types: pgTypes as pg.CustomTypesConfig });
    // Without a listener, an idle client's error (a restart, a dropped connection) would crash the process.
    pool.on('error', (err) => opts.onConnectionError?.(err));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      ping: async () => void (await pool.query('select 1')),
      close: () => db.destroy(),
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    ping: async () => void sqlite.prepare('select 1').get(),
    close: () => db.destroy(),
  };
}

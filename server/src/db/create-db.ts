/**
 * Open the database: embedded SQLite by default, PostgreSQL when given a postgres:// URL.
 * SQLite runs in WAL mode with synchronous=FULL so an acknowledged sale survives a power cut.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';
import type { DialectName } from './dialect.js';

/** Run `fn` in a transaction and commit it durably before resolving. */
export type Transact = <T>(fn: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  transact: Transact;
  /** Checks the database answers; used by the readiness probe. */
  ping(): Promise<void>;
  /** Periodic upkeep: keeps SQLite's planner statistics fresh (Postgres has autovacuum). */
  maintain(): Promise<void>;
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
      // Postgres already flushes concurrent commits to the WAL together.
      transact: (fn) => db.transaction().execute(fn),
      ping: async () => void (await pool.query('select 1')),
      maintain: async () => {},
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
  // Planner statistics: without them a search drives from the wrong index (SQLite's advice for long-lived connections).
  sqlite.pragma('optimize = 0x10002');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    transact: groupCommit(db),
    ping: async () => void sqlite.prepare('select 1').get(),
    maintain: async () => void sqlite.pragma('optimize'),
    close: () => db.destroy(),
  };
}

/**
 * Kysely prepares every query afresh; preparing costs more than running most of ours. Statements
 * are kept by SQL text (queries are parameterised, so the set is small) and reused: the driver
 * runs each to completion synchronously, so one statement is never in use twice at once.
 */
function cachingStatements(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (!stmt) {
        stmt = sqlite.prepare(text);
        if (cache.size >= 2000) cache.delete(cache.keys().next().value!);
        cache.set(text, stmt);
      }
      return stmt;
    },
  };
}

interface Unit {
  fn: (trx: Kysely<Database>) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * SQLite commits one writer at a time and each durable commit costs an fsync (synchronous=FULL),
 * so one commit per sale would cap a till fleet at the disk's fsync rate. Transactions that arrive
 * while another is committing are run together in one BEGIN…COMMIT, each in its own savepoint: a
 * failing unit rolls back alone, and every caller is answered only after the shared commit.
 */
function groupCommit(db: Kysely<Database>): Transact {
  const queue: Unit[] = [];
  let draining = false;

  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (queue.length) {
        const batch = queue.splice(0, 256);
        if (batch.length === 1) {
          const [unit] = batch as [Unit];
          await db.transaction().execute(unit.fn).then(unit.resolve, unit.reject);
          continue;
        }
        const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
        try {
          await db.transaction().execute(async (trx) => {
            for (const unit of batch) {
              await sql`savepoint unit`.execute(trx);
              try {
                const value = await unit.fn(trx);
                await sql`release unit`.execute(trx);
                outcomes.push({ ok: true, value });
              } catch (error) {
                await sql`rollback to unit`.execute(trx);
                await sql`release unit`.execute(trx);
                outcomes.push({ ok: false, error });
              }
            }
          });
        } catch (error) {
          for (const unit of batch) unit.reject(error);
          continue;
        }
        batch.forEach((unit, i) => {
          const o = outcomes[i]!;
          if (o.ok) unit.resolve(o.value);
          else unit.reject(o.error);
        });
      }
    } finally {
      draining = false;
    }
  }

  return <T>(fn: (trx: Kysely<Database>) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      void drain();
    });
}

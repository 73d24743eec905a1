/** Open the database: embedded SQLite by default, PostgreSQL when given a postgres:// URL. */
import type { DbHandle } from './handle.js';
import { openPostgres, type PostgresOptions } from './postgres.js';
import { openSqlite } from './sqlite.js';
import { countingTransact, countStatement } from './statement-count.js';

export type DbOptions = Partial<PostgresOptions> & {
  /** A file path or `:memory:`, used when there is no `url`. */
  sqliteFile?: string;
  /** Count each request's SQL statements (COUNT_STATEMENTS, db/statement-count.ts). */
  countStatements?: boolean;
};

export function createDb(opts: DbOptions): DbHandle {
  const log = opts.countStatements ? countStatement : undefined;
  const handle = opts.url ? openPostgres({ ...opts, url: opts.url, log }) : openSqlite(opts.sqliteFile ?? ':memory:', log);
  return opts.countStatements ? { ...handle, transact: countingTransact(handle.transact) } : handle;
}

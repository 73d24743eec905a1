/** Open the database: embedded SQLite by default, PostgreSQL when given a postgres:// URL. */
import type { DbHandle } from './handle.js';
import { openPostgres, type PostgresOptions } from './postgres.js';
import { openSqlite } from './sqlite.js';

export type DbOptions = Partial<PostgresOptions> & {
  /** A file path or `:memory:`, used when there is no `url`. */
  sqliteFile?: string;
};

export function createDb(opts: DbOptions): DbHandle {
  if (opts.url) return openPostgres({ ...opts, url: opts.url });
  return openSqlite(opts.sqliteFile ?? ':memory:');
}

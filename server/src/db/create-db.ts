/** Open the database: embedded SQLite by default, PostgreSQL when given a postgres:// URL. */
import type { KyselyPlugin } from 'kysely';
import type { DbHandle } from './handle.js';
import { openPostgres, type PostgresOptions } from './postgres.js';
import { openSqlite } from './sqlite.js';
import { countingTransact, countStatement } from './statement-count.js';

export type DbOptions = Partial<PostgresOptions> & {
  /** A file path or `:memory:`, used when there is no `url`. */
  sqliteFile?: string;
  /** Count each request's SQL statements (COUNT_STATEMENTS, db/statement-count.ts). */
  countStatements?: boolean;
  /** Plugins that see every statement of the main handle (the tests' tenant-scope check). */
  plugins?: KyselyPlugin[];
  /** SQLite: told when the checkpoint worker fails, so that an operator hears of it (wal-checkpoint.ts). */
  onCheckpointError?: (err: Error) => void;
  /** SQLite: threads that read for the server (read-pool.ts; SQLITE_READ_THREADS), and what hears of a reader's failure. */
  readThreads?: number;
  onReadError?: (err: Error) => void;
};

export function createDb(opts: DbOptions): DbHandle {
  const log = opts.countStatements ? countStatement : undefined;
  const handle = opts.url
    ? openPostgres({ ...opts, url: opts.url, log })
    : openSqlite(
        opts.sqliteFile ?? ':memory:',
        log,
        opts.plugins,
        { onError: opts.onCheckpointError },
        {
          threads: opts.readThreads,
          onError: opts.onReadError,
        },
      );
  return opts.countStatements ? { ...handle, transact: countingTransact(handle.transact) } : handle;
}

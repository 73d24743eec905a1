/**
 * The embedded database a move reads: held so that no server can use it meanwhile, and read
 * without changing a byte of it.
 *
 * How a running server is told apart from a stopped one, in order:
 * 1. its pid file (DATA_DIR/server.pid, written by every embedded server) names a live process;
 * 2. the write-ahead log holds pages not yet in the database file: a server has it open, or was
 *    killed before folding them in. Either way the move refuses rather than fold them in itself
 *    (which would rewrite the file); starting and stopping the server once folds them.
 * 3. the lock: the move opens the file in SQLite's EXCLUSIVE locking mode, which fails while any
 *    other connection has it open (a server in another container, whose pid file says nothing
 *    here), and once held keeps every server out until the move is done. With an empty log there
 *    is nothing to checkpoint on close, and `query_only` refuses any write: the file is left as it
 *    was (test/platform/move-to-postgres.pg.test.ts compares its hash).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { runningServerPid } from '../backup-sqlite.js';

export class MoveError extends Error {}

export interface Source {
  sqlite: SQLite.Database;
  /** The data tables: SQLite's own, the migrations' bookkeeping and full-text indexes left out. */
  tables: string[];
  /** The migrations the database has had. */
  migrations: string[];
  close(): void;
}

/** Tables the target's own migration run fills; never copied. */
export const BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock']);

export function openSource(dbFile: string): Source {
  if (!existsSync(dbFile)) throw new MoveError(`no database at ${dbFile}`);
  const pid = runningServerPid(path.dirname(dbFile));
  if (pid !== null) throw new MoveError(`a server (pid ${pid}) is running on ${dbFile}; stop it before moving`);
  const wal = `${dbFile}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new MoveError(
      `${dbFile} is in use, or its server was not stopped cleanly (${path.basename(wal)} holds changes not yet in the database file): stop the server, or start it and stop it once, then move`,
    );
  }
  const sqlite = new SQLite(dbFile, { fileMustExist: true, timeout: 0 });
  try {
    sqlite.pragma('locking_mode = EXCLUSIVE');
    sqlite.pragma('query_only = ON');
    // The first read takes the lock.
    sqlite.prepare('select count(*) from sqlite_master').get();
  } catch (err) {
    sqlite.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY')
      throw new MoveError(`${dbFile} is open in another process (a server?); stop it before moving`);
    throw new MoveError(`${dbFile} is not a readable SQLite database: ${(err as Error).message}`);
  }
  // table_list types FTS5's index as 'virtual' and its storage as 'shadow': both are rebuilt, never copied.
  const list = sqlite
    .prepare("select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%' order by name")
    .all() as Array<{ name: string }>;
  if (!list.some((t) => t.name === 'kysely_migration')) {
    sqlite.close();
    throw new MoveError(`${dbFile} is not a Duka database (no migrations table)`);
  }
  const migrations = (sqlite.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map(
    (r) => r.name,
  );
  return {
    sqlite,
    tables: list.map((t) => t.name).filter((n) => !BOOKKEEPING.has(n)),
    migrations,
    close: () => sqlite.close(),
  };
}

/** Names of `table`'s columns, in order. */
export function sourceColumns(sqlite: SQLite.Database, table: string): string[] {
  return (sqlite.prepare('select name from pragma_table_info(?)').all(table) as Array<{ name: string }>).map((c) => c.name);
}

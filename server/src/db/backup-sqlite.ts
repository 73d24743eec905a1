/**
 * The embedded SQLite database's part of backups: the online copy (SQLite's backup API, so the
 * server keeps selling while it is taken: better-sqlite3 copies a page batch at a time between
 * turns of the event loop), the check a restore makes first, and the pid file that tells a
 * restore a server is running on the folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export const DB_FILE = 'duka.db';
export const PID_FILE = 'server.pid';

/** Copy `dataDir`'s database, WAL included, into `dest`. */
export async function copySqlite(dataDir: string, dest: string): Promise<void> {
  const db = new SQLite(path.join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    await db.backup(dest);
  } finally {
    db.close();
  }
}

/** Null when `dbFile` is a whole Duka database; otherwise what is wrong with it. */
export function sqliteProblem(dbFile: string): string | null {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    const result = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    if (result[0]?.integrity_check !== 'ok')
      return `${dbFile} is damaged: ${result
        .map((r) => r.integrity_check)
        .slice(0, 3)
        .join('; ')}`;
    const table = db.prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    return table ? null : `${dbFile} is not a Duka database (no migrations table)`;
  } catch (err) {
    return `${dbFile} is not a readable SQLite database: ${(err as Error).message}`;
  } finally {
    db?.close();
  }
}

/** The pid in `dataDir`'s pid file if that process is alive. */
export function runningServerPid(dataDir: string): number | null {
  const file = path.join(dataDir, PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, but another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

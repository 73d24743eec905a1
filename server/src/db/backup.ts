/**
 * Backups of the database and the uploaded files beside it, and their restore, on either database.
 *
 * A backup is a folder `duka-<UTC time>/` holding the database (`duka.db`, SQLite's online copy,
 * or `duka.dump`, pg_dump's custom format: backup-sqlite.ts, backup-postgres.ts), `files/`
 * (uploads and report exports), the generated signing secret when there is one, and
 * `backup.json`. It is written under a temporary name, every file is fsynced, and only then
 * renamed into place: a folder with the final name is always whole, whatever crashed meanwhile.
 *
 * Restore puts a backup back while no server runs on the database. What it replaces is kept
 * (`DATA_DIR/before-restore-<time>/`), never deleted: on SQLite the database file with its WAL and
 * shared-memory files (SQLite would otherwise replay the old WAL into the restored file), on
 * Postgres a dump taken just before.
 *
 * With the files in an object store (STORAGE_DRIVER=s3) a backup holds the database only, and its
 * `backup.json` says where the files are: the store keeps them durably (enable its versioning to
 * undo deletes); copying a whole bucket on every backup would not scale. A restore then leaves
 * DATA_DIR/files alone: files deleted since the backup stay gone unless the store kept versions.
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkDump, connectedServers, dumpPostgres, loadDump, PgToolError, type PostgresTarget } from './backup-postgres.js';
import { copySqlite, DB_FILE, runningServerPid, sqliteProblem } from './backup-sqlite.js';

export { DB_FILE, PID_FILE } from './backup-sqlite.js';
export const DUMP_FILE = 'duka.dump';
export const FILES_DIR = 'files';
/** The generated signing secret (when JWT_SECRET is not set): integration keys are encrypted under it, so it travels with the data. */
const SECRET_FILE = 'jwt-secret';
const MANIFEST = 'backup.json';
const PREFIX = 'duka-';

/** Whose data: the folder of files (and SQLite database), and the Postgres database when there is one. */
export interface BackupTarget {
  dataDir: string;
  postgres?: PostgresTarget;
  /** The object store holding the files instead of DATA_DIR/files (`s3://bucket/prefix/ at host`). */
  filesElsewhere?: string;
}

export interface BackupInfo {
  /** The backup's folder. */
  dir: string;
  /** When the copy of the database was taken (ms). */
  takenAt: number;
  bytes: number;
}

export class BackupError extends Error {}

/** `2026-11-24T09:15:03.120Z` → `20261124T091503120Z`: sorts by time and is a plain file name. */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:.]/g, '');

function fsyncPath(p: string): void {
  const fd = openSync(p, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsync every file under `dir` and the folders themselves, deepest first. */
function fsyncTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) fsyncTree(p);
    else fsyncPath(p);
  }
  fsyncPath(dir);
}

/** The tools' errors are the operator's to read, not a crash. */
async function pgStep<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw err instanceof PgToolError ? new BackupError(err.message) : err;
  }
}

/** Take a backup of `target` into `backupDir`; `now` names it. Old temporaries of crashed runs are removed. */
export async function takeBackup(target: BackupTarget, backupDir: string, now: number): Promise<BackupInfo> {
  const { dataDir, postgres, filesElsewhere } = target;
  if (!postgres && !existsSync(path.join(dataDir, DB_FILE))) throw new BackupError(`no database at ${path.join(dataDir, DB_FILE)}`);
  await mkdir(backupDir, { recursive: true });
  for (const name of await readdir(backupDir))
    if (name.startsWith(`.tmp-${PREFIX}`)) await rm(path.join(backupDir, name), { recursive: true, force: true });
  const name = `${PREFIX}${stamp(now)}`;
  const tmp = path.join(backupDir, `.tmp-${name}`);
  const final = path.join(backupDir, name);
  await mkdir(tmp);
  const dbCopy = path.join(tmp, postgres ? DUMP_FILE : DB_FILE);
  if (postgres) await pgStep(() => dumpPostgres(postgres, dbCopy));
  else await copySqlite(dataDir, dbCopy);
  const files = path.join(dataDir, FILES_DIR);
  // Uploads are written once under random names and never changed, so a copy made while the
  // server runs holds each file whole; one uploaded meanwhile may or may not be in it.
  if (!filesElsewhere && existsSync(files)) await cp(files, path.join(tmp, FILES_DIR), { recursive: true });
  if (existsSync(path.join(dataDir, SECRET_FILE))) await cp(path.join(dataDir, SECRET_FILE), path.join(tmp, SECRET_FILE));
  await writeFile(
    path.join(tmp, MANIFEST),
    JSON.stringify({ taken_at: now, database: postgres ? 'postgres' : 'sqlite', files: filesElsewhere ?? FILES_DIR }),
  );
  fsyncTree(tmp);
  await rename(tmp, final);
  fsyncPath(backupDir);
  return { dir: final, takenAt: now, bytes: statSync(path.join(final, path.basename(dbCopy))).size };
}

/** The backups in `backupDir`, newest first. */
export function listBackups(backupDir: string): string[] {
  if (!existsSync(backupDir)) return [];
  return readdirSync(backupDir)
    .filter((n) => n.startsWith(PREFIX))
    .sort()
    .reverse()
    .map((n) => path.join(backupDir, n));
}

/** Delete all but the newest `keep` backups; answers what was deleted. */
export async function pruneBackups(backupDir: string, keep: number): Promise<string[]> {
  const old = listBackups(backupDir).slice(keep);
  for (const dir of old) await rm(dir, { recursive: true, force: true });
  return old;
}

export interface CheckedBackup {
  /** `dump`: pg_dump's custom format (Postgres); `db`: an SQLite database file. */
  format: 'dump' | 'db';
  dbFile: string;
  filesDir: string | null;
  secretFile: string | null;
  takenAt: number;
}

/**
 * A backup folder, or a bare `.db` or `.dump` file, checked: a whole Duka database (SQLite's
 * integrity check; a dump pg_restore can read), of the kind `target` runs on.
 */
export async function checkBackup(source: string, target: BackupTarget): Promise<CheckedBackup> {
  if (!existsSync(source)) throw new BackupError(`${source} does not exist`);
  const isDir = statSync(source).isDirectory();
  const format = (isDir ? existsSync(path.join(source, DUMP_FILE)) : source.endsWith('.dump')) ? 'dump' : 'db';
  const dbFile = isDir ? path.join(source, format === 'dump' ? DUMP_FILE : DB_FILE) : source;
  if (!existsSync(dbFile)) throw new BackupError(`${source} holds no ${DB_FILE} or ${DUMP_FILE}`);
  if (format === 'dump') {
    if (!target.postgres) throw new BackupError(`${source} is a PostgreSQL backup: set DATABASE_URL to restore it`);
    await pgStep(() => checkDump(target.postgres!, dbFile));
  } else {
    if (target.postgres)
      throw new BackupError(`${source} is a backup of the embedded SQLite database, and DATABASE_URL points at PostgreSQL`);
    const problem = sqliteProblem(dbFile);
    if (problem) throw new BackupError(problem);
  }
  const filesDir = isDir && existsSync(path.join(source, FILES_DIR)) ? path.join(source, FILES_DIR) : null;
  const manifest =
    isDir && existsSync(path.join(source, MANIFEST))
      ? (JSON.parse(readFileSync(path.join(source, MANIFEST), 'utf8')) as { taken_at?: unknown })
      : {};
  const takenAt = typeof manifest.taken_at === 'number' ? manifest.taken_at : statSync(dbFile).mtimeMs;
  const secretFile = isDir && existsSync(path.join(source, SECRET_FILE)) ? path.join(source, SECRET_FILE) : null;
  return { format, dbFile, filesDir, secretFile, takenAt };
}

async function refuseWhileRunning(target: BackupTarget): Promise<void> {
  if (target.postgres) {
    const servers = await pgStep(() => connectedServers(target.postgres!));
    if (servers.length)
      throw new BackupError(`Duka servers are connected to the database (from ${servers.join(', ')}); stop them all before restoring`);
    return;
  }
  const pid = runningServerPid(target.dataDir);
  if (pid !== null) throw new BackupError(`a server (pid ${pid}) is running on ${target.dataDir}; stop it before restoring`);
}

export interface RestoreResult {
  /** Where the replaced database and files were kept. */
  keptAt: string | null;
  /** When the restored backup was taken (ms). */
  takenAt: number;
}

/** Put `source` back as `target`'s database and files. Refuses while a server runs on it, and checks the backup before touching anything. */
export async function restoreBackup(target: BackupTarget, source: string, now: number): Promise<RestoreResult> {
  const { dataDir, postgres, filesElsewhere } = target;
  await refuseWhileRunning(target);
  const backup = await checkBackup(source, target);
  await mkdir(dataDir, { recursive: true });

  const keptAt = path.join(dataDir, `before-restore-${stamp(now)}`);
  const replaced = [
    ...(postgres ? [] : [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]),
    ...(filesElsewhere ? [] : [FILES_DIR]),
    ...(backup.secretFile ? [SECRET_FILE] : []),
  ];
  const current = replaced.filter((n) => existsSync(path.join(dataDir, n)));
  if (current.length || postgres) await mkdir(keptAt);
  if (postgres) await pgStep(() => dumpPostgres(postgres, path.join(keptAt, DUMP_FILE)));
  for (const n of current) await rename(path.join(dataDir, n), path.join(keptAt, n));

  if (postgres) await pgStep(() => loadDump(postgres, backup.dbFile));
  else {
    const tmp = path.join(dataDir, `${DB_FILE}.restoring`);
    await cp(backup.dbFile, tmp);
    fsyncPath(tmp);
    await rename(tmp, path.join(dataDir, DB_FILE));
  }
  if (backup.filesDir && !filesElsewhere) {
    await cp(backup.filesDir, path.join(dataDir, `${FILES_DIR}.restoring`), { recursive: true });
    fsyncTree(path.join(dataDir, `${FILES_DIR}.restoring`));
    await rename(path.join(dataDir, `${FILES_DIR}.restoring`), path.join(dataDir, FILES_DIR));
  }
  // copyFile keeps the 0600 mode the secret was written with.
  if (backup.secretFile) await cp(backup.secretFile, path.join(dataDir, SECRET_FILE));
  fsyncPath(dataDir);
  return { keptAt: current.length || postgres ? keptAt : null, takenAt: backup.takenAt };
}

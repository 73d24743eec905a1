/**
 * Backups of the embedded SQLite database and the uploaded files beside it, and their restore.
 *
 * A backup is a folder `duka-<UTC time>/` holding `duka.db` (SQLite's online backup API, so the
 * server keeps selling while it is taken: better-sqlite3 copies a page batch at a time between
 * turns of the event loop) and `files/` (uploads and report exports). It is written under a
 * temporary name, every file is fsynced, and only then renamed into place: a folder with the final
 * name is always whole, whatever crashed while it was being written.
 *
 * Restore puts a backup back while the server is stopped. The database being replaced and its files
 * are kept beside it (`before-restore-<time>/`), never deleted; the WAL and shared-memory files of
 * the old database go with it, since SQLite would otherwise replay the old WAL into the restored
 * file. A note (`restored.json`) tells the next server start to notify every shop.
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export const DB_FILE = 'duka.db';
export const FILES_DIR = 'files';
export const PID_FILE = 'server.pid';
/** The generated signing secret (when JWT_SECRET is not set): integration keys are encrypted under it, so it travels with the data. */
const SECRET_FILE = 'jwt-secret';
export const RESTORED_NOTE = 'restored.json';
const MANIFEST = 'backup.json';
const PREFIX = 'duka-';

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

/** Take a backup of `dataDir` into `backupDir`; `now` names it. Old temporaries of crashed runs are removed. */
export async function takeBackup(dataDir: string, backupDir: string, now: number): Promise<BackupInfo> {
  const source = path.join(dataDir, DB_FILE);
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  await mkdir(backupDir, { recursive: true });
  for (const name of await readdir(backupDir)) if (name.startsWith(`.tmp-${PREFIX}`)) await rm(path.join(backupDir, name), { recursive: true, force: true });
  const name = `${PREFIX}${stamp(now)}`;
  const tmp = path.join(backupDir, `.tmp-${name}`);
  const final = path.join(backupDir, name);
  await mkdir(tmp);
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(path.join(tmp, DB_FILE));
  } finally {
    db.close();
  }
  const files = path.join(dataDir, FILES_DIR);
  // Uploads are written once under random names and never changed, so a copy made while the
  // server runs holds each file whole; one uploaded meanwhile may or may not be in it.
  if (existsSync(files)) await cp(files, path.join(tmp, FILES_DIR), { recursive: true });
  if (existsSync(path.join(dataDir, SECRET_FILE))) await cp(path.join(dataDir, SECRET_FILE), path.join(tmp, SECRET_FILE));
  await writeFile(path.join(tmp, MANIFEST), JSON.stringify({ taken_at: now, source: path.resolve(source) }));
  fsyncTree(tmp);
  await rename(tmp, final);
  fsyncPath(backupDir);
  return { dir: final, takenAt: now, bytes: statSync(path.join(final, DB_FILE)).size };
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

/** A backup folder, or a bare `.db` file, checked: SQLite's integrity check passes and it is a Duka database. */
export function checkBackup(source: string): { dbFile: string; filesDir: string | null; secretFile: string | null; takenAt: number } {
  if (!existsSync(source)) throw new BackupError(`${source} does not exist`);
  const isDir = statSync(source).isDirectory();
  const dbFile = isDir ? path.join(source, DB_FILE) : source;
  if (!existsSync(dbFile)) throw new BackupError(`${source} holds no ${DB_FILE}`);
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    const result = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    if (result[0]?.integrity_check !== 'ok') throw new BackupError(`${dbFile} is damaged: ${result.map((r) => r.integrity_check).slice(0, 3).join('; ')}`);
    const table = db.prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) throw new BackupError(`${dbFile} is not a Duka database (no migrations table)`);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${dbFile} is not a readable SQLite database: ${(err as Error).message}`);
  } finally {
    db?.close();
  }
  const filesDir = isDir && existsSync(path.join(source, FILES_DIR)) ? path.join(source, FILES_DIR) : null;
  const manifest = isDir && existsSync(path.join(source, MANIFEST)) ? (JSON.parse(readFileSync(path.join(source, MANIFEST), 'utf8')) as { taken_at?: unknown }) : {};
  const takenAt = typeof manifest.taken_at === 'number' ? manifest.taken_at : statSync(dbFile).mtimeMs;
  const secretFile = isDir && existsSync(path.join(source, SECRET_FILE)) ? path.join(source, SECRET_FILE) : null;
  return { dbFile, filesDir, secretFile, takenAt };
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

export interface RestoreResult {
  /** Where the replaced database and files were moved. */
  keptAt: string | null;
}

/** Put `source` back as `dataDir`'s database and files. Refuses while a server runs on `dataDir`. */
export async function restoreBackup(dataDir: string, source: string, now: number): Promise<RestoreResult> {
  const pid = runningServerPid(dataDir);
  if (pid !== null) throw new BackupError(`a server (pid ${pid}) is running on ${dataDir}; stop it before restoring`);
  const { dbFile, filesDir, secretFile, takenAt } = checkBackup(source);
  await mkdir(dataDir, { recursive: true });

  const replaced = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, FILES_DIR, ...(secretFile ? [SECRET_FILE] : [])];
  const current = replaced.filter((n) => existsSync(path.join(dataDir, n)));
  let keptAt: string | null = null;
  if (current.length) {
    keptAt = path.join(dataDir, `before-restore-${stamp(now)}`);
    await mkdir(keptAt);
    for (const n of current) await rename(path.join(dataDir, n), path.join(keptAt, n));
  }
  const tmp = path.join(dataDir, `${DB_FILE}.restoring`);
  await cp(dbFile, tmp);
  fsyncPath(tmp);
  await rename(tmp, path.join(dataDir, DB_FILE));
  if (filesDir) {
    await cp(filesDir, path.join(dataDir, `${FILES_DIR}.restoring`), { recursive: true });
    fsyncTree(path.join(dataDir, `${FILES_DIR}.restoring`));
    await rename(path.join(dataDir, `${FILES_DIR}.restoring`), path.join(dataDir, FILES_DIR));
  }
  // copyFile keeps the 0600 mode the secret was written with.
  if (secretFile) await cp(secretFile, path.join(dataDir, SECRET_FILE));
  await writeFile(path.join(dataDir, RESTORED_NOTE), JSON.stringify({ backup: path.resolve(source), taken_at: takenAt, restored_at: now }));
  fsyncPath(dataDir);
  return { keptAt };
}

export interface RestoredNote {
  backup: string;
  taken_at: number;
  restored_at: number;
}

/** The note a restore left for the next start; cleared with `clearRestoredNote` once acted on. */
export function readRestoredNote(dataDir: string): RestoredNote | null {
  const file = path.join(dataDir, RESTORED_NOTE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RestoredNote) : null;
}

export const clearRestoredNote = (dataDir: string) => rm(path.join(dataDir, RESTORED_NOTE), { force: true });

/**
 * The worker a browser till keeps its replica in: SQLite WASM on the origin private file system
 * (OPFS) through the `opfs-sahpool` VFS. That VFS needs no cross-origin isolation headers and is
 * the fastest, at the price of one connection per origin, which is the till's rule anyway (one
 * tab owns the till: `claim.ts`). Bundle it as a module worker (README, "In a browser").
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import type { PortLike } from './protocol.js';
import { OpenFailure, type OpenedDatabase, serveSqlite } from './serve.js';

/** How long to wait for the files to come free: after a reload, the previous page's worker may still be letting go of them. */
const BUSY_WAIT_MS = 3000;

async function openOnOpfs(name: string): Promise<OpenedDatabase> {
  const sqlite3 = await sqlite3InitModule();
  const pool = await installPool(sqlite3);
  const db = new pool.OpfsSAHPoolDb(`/${name}`);
  tune(db);
  return { sqlite3, db };
}

/**
 * The connection's settings, measured in Chromium on a profile on disk (issue 53,
 * docs/benchmarks.md). The exclusive lock took a one-row durable commit from 7-8 ms to 0.9: SQLite
 * no longer takes and drops the file's lock and re-checks its page cache at every transaction (one
 * connection in one worker of one tab is the till's rule anyway). `persist` neither deletes nor
 * truncates the journal at a commit (truncating cost 6 ms). WAL, possible on this VFS only under
 * the exclusive lock (it has no shared memory), committed no cheaper and writes a bootstrap twice
 * (the WAL, then the checkpoint). A page cache that holds a 50,000-product replica keeps a
 * bootstrap's transaction from spilling to the file midway and a sale's lookups off OPFS.
 *
 * Durable: with `synchronous = full` a commit syncs the journal before it writes the database and
 * syncs the database before the journal is marked done, so a sale the till has shown survives a
 * crash or a power cut, and a crash midway rolls the whole transaction back at the next open.
 */
function tune(db: OpenedDatabase['db']): void {
  db.exec('pragma locking_mode = exclusive');
  db.exec('pragma journal_mode = persist');
  db.exec('pragma synchronous = full');
  db.exec('pragma cache_size = -65536');
  // A bootstrap journals the whole replica it replaces; the journal it leaves is cut back to this.
  db.exec('pragma journal_size_limit = 4194304');
  // Sorts and statement journals in memory: in this VFS a temporary file takes one of the pool's few slots.
  db.exec('pragma temp_store = memory');
}

const POOL_OPTIONS = {
  name: 'duka-sahpool',
  // Without this, a failed start (the files held by another tab) tries to delete the pool's directory, the
  // till's data: held files resist, but files the other worker is just letting go of would not.
  preserveOnInitFailure: true,
  // A failed start is remembered; a retry must really try again (an option the typings do not list yet).
  forceReinitIfPreviouslyFailed: true,
};

async function installPool(sqlite3: OpenedDatabase['sqlite3']) {
  const until = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    try {
      return await sqlite3.installOpfsSAHPoolVfs(POOL_OPTIONS);
    } catch (e) {
      const name = (e as { name?: string }).name;
      const message = e instanceof Error ? e.message : String(e);
      if (name !== 'NoModificationAllowedError')
        throw new OpenFailure('unavailable', `its private file system is not available (${message})`);
      if (Date.now() > until) throw new OpenFailure('busy', `the database files are held by another tab (${message})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

serveSqlite(globalThis as unknown as PortLike, openOnOpfs);

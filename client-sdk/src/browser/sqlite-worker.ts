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
  // Every commit reaches the disk before the till shows the sale as done.
  db.exec('pragma synchronous = full');
  // Sorts and statement journals in memory: in this VFS a temporary file takes one of the pool's few slots.
  db.exec('pragma temp_store = memory');
  return { sqlite3, db };
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

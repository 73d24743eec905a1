/**
 * Durable SQLite commits without stopping the server for the disk (issue 39).
 *
 * With synchronous=FULL every COMMIT waits for an fsync of the WAL, and better-sqlite3 runs on the
 * event loop: for those milliseconds no socket is read, no request parsed, no websocket answered,
 * and a fleet of tills is capped at the disk's fsync rate. Here SQLite commits with
 * synchronous=NORMAL (the WAL is written, not synced; SQLite still syncs around its checkpoints)
 * and the server syncs the WAL itself, off the loop (libuv's thread pool), once for every commit
 * made while the last sync ran. Nothing leaves the server before the commits it could have seen are
 * on disk: a transaction's callers are answered after `durable()`, and so is every HTTP response,
 * a read included (a pull must never hand a till a change a power cut could take back).
 * test/platform/power-loss.test.ts cuts the power under a fleet of pushing tills and counts.
 */
import { type FileHandle, open } from 'node:fs/promises';
import type SQLite from 'better-sqlite3';

interface Waiter {
  upTo: number;
  resolve(): void;
  reject(err: unknown): void;
}

export interface WalSync {
  /** A commit happened (a COMMIT, or a write outside any transaction). */
  committed(): void;
  /** Resolves once every commit made before the call is on disk. */
  durable(): Promise<void>;
  close(): Promise<void>;
}

export function walSync(walFile: string): WalSync {
  let written = 0;
  let synced = 0;
  let running = false;
  const waiters: Waiter[] = [];

  // Opened once and kept: the WAL file lives as long as the server's connection (SQLite starts it
  // over in place, never replaces it), and an open per sync cost as much as the sync's own call.
  let handle: Promise<FileHandle | null> | null = null;
  async function syncWal() {
    handle ??= open(walFile, 'r+').catch((err: NodeJS.ErrnoException) => {
      handle = null;
      // No WAL file yet (nothing written) or any more (a clean close checkpointed it all away).
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    const fh = await handle;
    await fh?.datasync();
  }

  function settle(upTo: number, err?: unknown) {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i]!;
      if (w.upTo > upTo) continue;
      waiters.splice(i, 1);
      if (err === undefined) w.resolve();
      else w.reject(err);
    }
  }

  function pump() {
    if (running || waiters.length === 0) return;
    running = true;
    // Everything written so far is in the WAL file: this one sync covers it all.
    const upTo = written;
    syncWal()
      .then(
        () => {
          synced = Math.max(synced, upTo);
          settle(upTo);
        },
        (err) => settle(upTo, err),
      )
      .finally(() => {
        running = false;
        pump();
      });
  }

  return {
    committed: () => void written++,
    durable() {
      if (synced >= written) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        waiters.push({ upTo: written, resolve, reject });
        pump();
      });
    },
    async close() {
      const fh = await handle?.catch(() => null);
      handle = null;
      await fh?.close();
    },
  };
}

/**
 * better-sqlite3's database as Kysely's driver sees it, telling `sync` of every commit: a statement
 * that writes and leaves no transaction open is either a COMMIT or a write in a transaction of its own.
 */
export function countingCommits(db: SQLite.Database, sync: WalSync): Pick<SQLite.Database, 'prepare' | 'close'> {
  return {
    close: () => db.close(),
    prepare(text: string) {
      const stmt = db.prepare(text);
      if (stmt.reader) return stmt;
      // Kysely's driver uses `reader` and `run` of a statement that writes.
      const run = stmt.run.bind(stmt);
      return Object.assign(Object.create(stmt), {
        run(...params: unknown[]) {
          const result = run(...params);
          if (!db.inTransaction) sync.committed();
          return result;
        },
      });
    },
  } as Pick<SQLite.Database, 'prepare' | 'close'>;
}

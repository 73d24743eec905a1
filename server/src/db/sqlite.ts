/**
 * Embedded SQLite, the default. WAL mode; an acknowledged sale survives a power cut because nothing
 * is answered before the WAL is synced (wal-sync.ts: off the event loop, one fsync for many commits).
 * One process owns the file, so fan-out and rate limits live in memory.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type KyselyConfig, SqliteDialect } from 'kysely';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { cachingStatements } from '@duka/shared';
import type { Database } from './database.js';
import { groupCommit } from './group-commit.js';
import { checkPublish, type DbHandle } from './handle.js';
import { migrateToLatest } from './migrate.js';
import { ReadPoolDialect } from './read-dialect.js';
import { type ReadPool, readPool } from './read-pool.js';
import { countingCommits, walSync } from './wal-sync.js';
import { type CheckpointOptions, type WalCheckpointer, walCheckpointer } from './wal-checkpoint.js';

/**
 * Threads that read for the server (read-pool.ts) unless SQLITE_READ_THREADS says: one a core,
 * two to four; the event loop keeps a core's worth of work of its own (HTTP, JSON, the writer).
 */
export const defaultReadThreads = () => Math.min(4, Math.max(2, availableParallelism()));

/**
 * `file` is a path or `:memory:`; `log` is Kysely's hook (statement counting); `plugins` see every
 * statement (tests' checks); `reads.threads` sizes the read pool of a file database (0: none),
 * whose workers' failures `reads.onError` hears.
 */
export function openSqlite(
  file: string,
  log?: KyselyConfig['log'],
  plugins?: KyselyConfig['plugins'],
  checkpoints?: CheckpointOptions,
  reads: { threads?: number; onError?: (err: Error) => void } = {},
): DbHandle {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL: a commit is written to the WAL, not synced; wal-sync.ts syncs it before anyone hears of it.
  sqlite.pragma(`synchronous = ${file === ':memory:' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Planner statistics: without them a search drives from the wrong index (SQLite's advice for long-lived connections).
  sqlite.pragma('optimize = 0x10002');
  const sync = file === ':memory:' ? null : walSync(`${file}-wal`);
  // Checkpoints run in a worker thread (wal-checkpoint.ts); should it die, SQLite's own come back.
  if (sync) sqlite.pragma('wal_autocheckpoint = 0');
  const checkpointer = sync
    ? walCheckpointer(file, checkpoints, (err) => {
        if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
        checkpoints?.onError?.(err);
      })
    : undefined;
  const database = cachingStatements(sync ? countingCommits(sqlite, sync) : sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }), log, plugins });
  const settled = sync ? sync.durable : async () => {};
  // WAL lets a second connection read while the first writes; an in-memory database has only one.
  const probe = file === ':memory:' ? null : new SQLite(file, { readonly: true });
  const probeDb = probe ? new Kysely<Database>({ dialect: new SqliteDialect({ database: probe }) }) : db;
  // Reads off the event loop, on connections of their own (read-pool.ts); the pool needs a file.
  const threads = reads.threads ?? defaultReadThreads();
  const readers = file !== ':memory:' && threads > 0 ? readPool(file, threads, reads.onError) : null;
  const readDb = readers ? new Kysely<Database>({ dialect: new ReadPoolDialect(readers, database), log, plugins }) : db;
  // One process owns an SQLite database, so fan-out is an in-memory emitter.
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    db,
    dialect: 'sqlite',
    transact: groupCommit(db, settled, checkpointer && readers ? quietReads(checkpointer, readers) : checkpointer),
    settled,
    probeDb,
    readDb,
    readPool: readers ?? undefined,
    ping: async () => void (probe ?? sqlite).prepare('select 1').get(),
    maintain: async () => void sqlite.pragma('optimize'),
    // A no-op unless a table has grown enough since its statistics were taken: every 10 minutes, so
    // a catalogue imported in bulk is planned on its real size soon after.
    maintainEveryMs: 600_000,
    migrate: () => migrateToLatest(db),
    stats: () => {
      if (file === ':memory:') return {};
      try {
        return { walBytes: statSync(`${file}-wal`).size, readThreads: readers?.workers().length };
      } catch {
        return { walBytes: 0, readThreads: readers?.workers().length };
      }
    },
    publish: async (channel, payload) => {
      checkPublish(channel, payload);
      // Delivered on a later tick, as NOTIFY would be: a subscriber never runs inside the publisher's call.
      setImmediate(() => bus.emit(channel, payload));
    },
    subscribe: async (channel, onMessage) => {
      checkPublish(channel, '');
      const listener = (payload: string) => {
        try {
          onMessage(payload);
        } catch {
          // A subscriber's failure is its own; the publisher never hears of it (as with NOTIFY).
        }
      };
      bus.on(channel, listener);
      return async () => void bus.off(channel, listener);
    },
    sharedLimiter: (o) => new RateLimiterMemory(o),
    close: async () => {
      bus.removeAllListeners();
      if (probe) await probeDb.destroy();
      if (readers) await readers.close();
      await checkpointer?.close();
      await db.destroy();
      await sync?.close();
    },
  };
}

/**
 * The checkpoint's pause with the read threads quiet too: a read under way keeps its snapshot, and
 * with reads always under way the checkpoint never copies the whole WAL nor does the writer start
 * it over (read-pool.ts `quiet`). Reads wait for the pause, a few milliseconds.
 */
function quietReads(checkpointer: WalCheckpointer, readers: ReadPool): Pick<WalCheckpointer, 'turn' | 'onPause' | 'pausing'> {
  return {
    get pausing() {
      return checkpointer.pausing;
    },
    onPause: (kick) => checkpointer.onPause(kick),
    turn: () => (checkpointer.pausing ? readers.quiet(() => checkpointer.turn()) : checkpointer.turn()),
  };
}

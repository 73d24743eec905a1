/**
 * Embedded SQLite, the default. WAL mode with synchronous=FULL so an acknowledged sale survives a
 * power cut; one process owns the file, so fan-out and rate limits live in memory.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type KyselyConfig, SqliteDialect } from 'kysely';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { cachingStatements } from '@duka/shared';
import type { Database } from './database.js';
import { groupCommit } from './group-commit.js';
import { checkPublish, type DbHandle } from './handle.js';
import { migrateToLatest } from './migrate.js';

/** `file` is a path or `:memory:`; `log` is Kysely's hook (statement counting); `plugins` see every statement (tests' checks). */
export function openSqlite(file: string, log?: KyselyConfig['log'], plugins?: KyselyConfig['plugins']): DbHandle {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Planner statistics: without them a search drives from the wrong index (SQLite's advice for long-lived connections).
  sqlite.pragma('optimize = 0x10002');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }), log, plugins });
  // WAL lets a second connection read while the first writes; an in-memory database has only one.
  const probe = file === ':memory:' ? null : new SQLite(file, { readonly: true });
  const probeDb = probe ? new Kysely<Database>({ dialect: new SqliteDialect({ database: probe }) }) : db;
  // One process owns an SQLite database, so fan-out is an in-memory emitter.
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    db,
    dialect: 'sqlite',
    transact: groupCommit(db),
    probeDb,
    ping: async () => void (probe ?? sqlite).prepare('select 1').get(),
    maintain: async () => void sqlite.pragma('optimize'),
    migrate: () => migrateToLatest(db),
    stats: () => {
      if (file === ':memory:') return {};
      try {
        return { walBytes: statSync(`${file}-wal`).size };
      } catch {
        return { walBytes: 0 };
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
      await db.destroy();
    },
  };
}

/**
 * Open the database: embedded SQLite by default, PostgreSQL when given a postgres:// URL.
 * SQLite runs in WAL mode with synchronous=FULL so an acknowledged sale survives a power cut.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { cachingStatements } from '@duka/shared';
import type { Database } from './database.js';
import type { DialectName } from './dialect.js';

/** Run `fn` in a transaction and commit it durably before resolving. */
export type Transact = <T>(fn: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  transact: Transact;
  /** Checks the database answers; used by the readiness probe. */
  ping(): Promise<void>;
  /** Periodic upkeep: keeps SQLite's planner statistics fresh (Postgres has autovacuum). */
  maintain(): Promise<void>;
  /**
   * Send `payload` (under MAX_PUBLISH_BYTES) to every subscriber of `channel`, in every server
   * process sharing this database: Postgres NOTIFY; in memory on SQLite, which has one process.
   * Delivery is best effort: a subscriber whose connection is being re-established misses it.
   */
  publish(channel: string, payload: string): Promise<void>;
  /**
   * Receive what is published on `channel`. Resolves once listening. `onReconnect` runs each time
   * a lost listening connection is back (Postgres), so a subscriber can catch up on what it missed.
   */
  subscribe(channel: string, onMessage: (payload: string) => void, opts?: { onReconnect?: () => void }): Promise<Unsubscribe>;
  /**
   * A rate limiter whose counts every server process sharing this database sees: kept in the
   * `rate_limits` table on Postgres; in memory on SQLite, which has one process.
   */
  sharedLimiter(opts: LimiterOptions): RateLimiterAbstract;
  close(): Promise<void>;
}

export interface LimiterOptions {
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

export type Unsubscribe = () => Promise<void>;

/** Postgres refuses NOTIFY payloads of 8000 bytes or more; SQLite keeps the same limit so code behaves alike. */
export const MAX_PUBLISH_BYTES = 7999;

export interface DbOptions {
  /** postgres:// URL; when absent, SQLite at `sqliteFile`. */
  url?: string;
  /** A file path or `:memory:`. */
  sqliteFile?: string;
  poolSize?: number;
  /** Told when an idle Postgres connection fails (e.g. the server restarted); the pool replaces it. */
  onConnectionError?: (err: Error) => void;
}

// bigint (20) and numeric (1700, e.g. SUM of bigint) come back as numbers: every value we store
// (epoch ms, cents, counters) fits in 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export function createDb(opts: DbOptions): DbHandle {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10, types: pgTypes as pg.CustomTypesConfig });
    // Without a listener, an idle client's error (a restart, a dropped connection) would crash the process.
    pool.on('error', (err) => opts.onConnectionError?.(err));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const listener = pgListener(opts.url, opts.onConnectionError);
    return {
      db,
      dialect: 'postgres',
      // Postgres already flushes concurrent commits to the WAL together.
      transact: (fn) => db.transaction().execute(fn),
      ping: async () => void (await pool.query('select 1')),
      maintain: async () => {},
      publish: async (channel, payload) => {
        checkPublish(channel, payload);
        await pool.query('select pg_notify($1, $2)', [channel, payload]);
      },
      subscribe: listener.subscribe,
      // The table comes from the migrations; expired rows are cleared by the library every 5 minutes.
      sharedLimiter: (o) => new RateLimiterPostgres({ storeClient: pool, tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: true, ...o }),
      close: async () => {
        await listener.close();
        await db.destroy();
      },
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Planner statistics: without them a search drives from the wrong index (SQLite's advice for long-lived connections).
  sqlite.pragma('optimize = 0x10002');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
  // One process owns an SQLite database, so fan-out is an in-memory emitter.
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    db,
    dialect: 'sqlite',
    transact: groupCommit(db),
    ping: async () => void sqlite.prepare('select 1').get(),
    maintain: async () => void sqlite.pragma('optimize'),
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
      await db.destroy();
    },
  };
}

function checkPublish(channel: string, payload: string) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  if (Buffer.byteLength(payload) > MAX_PUBLISH_BYTES) throw new Error(`publish payload is over ${MAX_PUBLISH_BYTES} bytes`);
}

interface Subscriber {
  onMessage(payload: string): void;
  onReconnect?: () => void;
  ready: boolean;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * The one LISTEN connection of this process. It is opened on the first subscribe (CLI tools and
 * processes without websockets never open it) and reopened with backoff when it drops; each
 * reopening is told to subscribers (`onReconnect`), since notifications sent meanwhile are lost.
 */
function pgListener(url: string, onError?: (err: Error) => void) {
  const channels = new Map<string, Set<Subscriber>>();
  let client: pg.Client | null = null;
  let connecting = false;
  let retry: NodeJS.Timeout | null = null;
  let attempt = 0;
  let closed = false;

  const all = () => [...channels.values()].flatMap((set) => [...set]);

  function dispatch(channel: string, payload: string) {
    for (const s of channels.get(channel) ?? []) {
      try {
        s.onMessage(payload);
      } catch {
        // See the SQLite twin: a subscriber's failure stays with it.
      }
    }
  }

  function lost(c: pg.Client, err?: Error) {
    if (client !== c) return;
    if (err) onError?.(err);
    client = null;
    void c.end().catch(() => {});
    schedule();
  }

  function schedule() {
    if (closed || retry || connecting || client || !channels.size) return;
    const delay = attempt === 0 ? 0 : Math.min(30_000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt++;
    retry = setTimeout(() => {
      retry = null;
      void open();
    }, delay);
    retry.unref();
  }

  async function open() {
    if (closed || client || connecting) return;
    connecting = true;
    const c = new pg.Client({ connectionString: url, keepAlive: true });
    c.on('notification', (m) => dispatch(m.channel, m.payload ?? ''));
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      // Channels subscribed while this runs are picked up by the next round.
      const done = new Set<string>();
      for (let todo = [...channels.keys()]; todo.length; todo = [...channels.keys()].filter((ch) => !done.has(ch))) {
        for (const ch of todo) {
          await c.query(`LISTEN ${ch}`);
          done.add(ch);
        }
      }
    } catch (err) {
      connecting = false;
      onError?.(err as Error);
      void c.end().catch(() => {});
      schedule();
      return;
    }
    connecting = false;
    if (closed) {
      void c.end().catch(() => {});
      return;
    }
    client = c;
    attempt = 0;
    for (const s of all()) {
      if (s.ready) s.onReconnect?.();
      else {
        s.ready = true;
        s.resolve();
      }
    }
  }

  return {
    subscribe(channel: string, onMessage: (payload: string) => void, o?: { onReconnect?: () => void }): Promise<Unsubscribe> {
      checkPublish(channel, '');
      if (closed) return Promise.reject(new Error('database handle is closed'));
      return new Promise<Unsubscribe>((resolve, reject) => {
        let set = channels.get(channel);
        const fresh = !set;
        if (!set) channels.set(channel, (set = new Set()));
        const unsubscribe: Unsubscribe = async () => {
          set.delete(sub);
          if (set.size || channels.get(channel) !== set) return;
          channels.delete(channel);
          await client?.query(`UNLISTEN ${channel}`).catch(() => {});
        };
        const sub: Subscriber = { onMessage, onReconnect: o?.onReconnect, ready: false, resolve: () => resolve(unsubscribe), reject };
        set.add(sub);
        const c = client;
        if (!c) return void schedule();
        if (!fresh) {
          sub.ready = true;
          return sub.resolve();
        }
        c.query(`LISTEN ${channel}`).then(
          () => {
            if (sub.ready || client !== c) return;
            sub.ready = true;
            sub.resolve();
          },
          // The connection failed under us; the next one listens to every channel and resolves this.
          (err: Error) => lost(c, err),
        );
      });
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      for (const s of all()) if (!s.ready) s.reject(new Error('database handle is closed'));
      channels.clear();
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

interface Unit {
  fn: (trx: Kysely<Database>) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * SQLite commits one writer at a time and each durable commit costs an fsync (synchronous=FULL),
 * so one commit per sale would cap a till fleet at the disk's fsync rate. Transactions that arrive
 * while another is committing are run together in one BEGIN…COMMIT, each in its own savepoint: a
 * failing unit rolls back alone, and every caller is answered only after the shared commit.
 */
function groupCommit(db: Kysely<Database>): Transact {
  const queue: Unit[] = [];
  let draining = false;

  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (queue.length) {
        const batch = queue.splice(0, 256);
        if (batch.length === 1) {
          const [unit] = batch as [Unit];
          await db.transaction().execute(unit.fn).then(unit.resolve, unit.reject);
          continue;
        }
        const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
        try {
          await db.transaction().execute(async (trx) => {
            for (const unit of batch) {
              await sql`savepoint unit`.execute(trx);
              try {
                const value = await unit.fn(trx);
                await sql`release unit`.execute(trx);
                outcomes.push({ ok: true, value });
              } catch (error) {
                await sql`rollback to unit`.execute(trx);
                await sql`release unit`.execute(trx);
                outcomes.push({ ok: false, error });
              }
            }
          });
        } catch (error) {
          for (const unit of batch) unit.reject(error);
          continue;
        }
        batch.forEach((unit, i) => {
          const o = outcomes[i]!;
          if (o.ok) unit.resolve(o.value);
          else unit.reject(o.error);
        });
      }
    } finally {
      draining = false;
    }
  }

  return <T>(fn: (trx: Kysely<Database>) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      void drain();
    });
}

/**
 * What an open database is to the rest of the server, whichever it is (sqlite.ts, postgres.ts):
 * queries, durable transactions, a cross-process fan-out channel and a shared rate limiter.
 */
import type { Kysely } from 'kysely';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database, Transact } from './database.js';
import type { DialectName } from './dialect.js';
import type { ReadPool } from './read-pool.js';

export type { Transact } from './database.js';

export interface DbStats {
  pool?: { total: number; idle: number; waiting: number };
  walBytes?: number;
  /** SQLite: the read pool's threads alive now. */
  readThreads?: number;
}

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  transact: Transact;
  /**
   * Resolves once every commit made so far is on disk. SQLite syncs its WAL off the event loop after
   * committing (wal-sync.ts), so a response waits for this before it leaves; Postgres's commits are
   * durable when they return.
   */
  settled(): Promise<void>;
  /**
   * A connection of its own for the probes and the metrics (readiness, the outbox gauge): they
   * answer while requests queue for the pool (Postgres) or wait behind the group commit's
   * transactions (SQLite), so an overloaded server says it is overloaded instead of timing out.
   * Read-only use.
   */
  probeDb: Kysely<Database>;
  /**
   * Where reads that need see only what is committed go (product search, reports): on SQLite with a
   * file, a pool of worker threads with read-only connections of their own (read-pool.ts), off the
   * writer's event loop; otherwise `db` itself. No transactions; never a write.
   */
  readDb: Kysely<Database>;
  /** SQLite with a file: the read pool behind `readDb`, its live workers (tests end one to see it replaced). */
  readPool?: Pick<ReadPool, 'workers'>;
  /** Checks the database answers, on the probes' connection; used by the readiness probe. */
  ping(): Promise<void>;
  /**
   * Periodic upkeep of the planner's statistics: SQLite's PRAGMA optimize; on Postgres, tables that
   * outgrew theirs are analysed before autovacuum's next round (pg-statistics.ts).
   */
  maintain(): Promise<void>;
  /** How often `maintain` runs, ms. */
  maintainEveryMs: number;
  /** What an operator watches (GET /metrics): the Postgres pool's connections, or SQLite's WAL size. */
  stats(): DbStats;
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
  /**
   * Bring the schema to the latest migration; answers the names applied. On Postgres it runs on a
   * connection of its own (the direct one behind a pooler): the migrator's lock is a session's, and
   * through a transaction pooler it could be taken on one server connection and left held there.
   */
  migrate(): Promise<string[]>;
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

/** LISTEN cannot take its channel as a parameter, so a name must be a plain identifier to be spliced in safely. */
export function checkPublish(channel: string, payload: string) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  if (Buffer.byteLength(payload) > MAX_PUBLISH_BYTES) throw new Error(`publish payload is over ${MAX_PUBLISH_BYTES} bytes`);
}

/** What our server's Postgres connections call themselves, so `npm run restore` can see whether any server is still connected. */
export const SERVER_APPLICATION_NAME = 'duka';

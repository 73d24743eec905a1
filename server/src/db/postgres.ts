/**
 * PostgreSQL: a pool for queries and transactions, NOTIFY to publish and one LISTEN connection to
 * receive. The pool may go through a pooler in transaction mode (PgBouncer): nothing relies on a
 * session across transactions there (no session settings, locks or named prepared statements);
 * what needs a session (LISTEN, the migrator's lock) uses `directUrl` when given.
 */
import { Kysely, type KyselyConfig, PostgresDialect } from 'kysely';
import pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Database } from './database.js';
import { checkPublish, type DbHandle, SERVER_APPLICATION_NAME } from './handle.js';
import { migrateToLatest } from './migrate.js';
import { pgListener } from './pg-listener.js';
import { analyzeOutgrown } from './pg-statistics.js';

export interface PostgresOptions {
  /** postgres:// URL: the database, or a pooler in front of it. */
  url: string;
  /** The database itself, when `url` is a pooler (DATABASE_DIRECT_URL). */
  directUrl?: string;
  poolSize?: number;
  /** Told when an idle Postgres connection fails (e.g. the server restarted); the pool replaces it. */
  onConnectionError?: (err: Error) => void;
  /** Kysely's log hook (statement counting). */
  log?: KyselyConfig['log'];
  /** Plugins that see every statement of the main handle (the tests' tenant-scope check). */
  plugins?: KyselyConfig['plugins'];
}

// bigint (20) and numeric (1700, e.g. SUM of bigint) come back as numbers: every value we store
// (epoch ms, cents, counters) fits in 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * The pool as the rate limiter sees it, its statements unnamed: a named prepared statement lives in
 * one server connection, and behind a transaction pooler the next use may land on another, which
 * has never heard of it.
 */
const unnamedStatements = (pool: pg.Pool) => ({
  query: (q: { text: string; values?: unknown[] }) => pool.query({ text: q.text, values: q.values }),
});

/**
 * A pool whose connections' errors never crash the process. The pool listens to an idle client's
 * error (a restart, a dropped connection) and replaces it; a checked-out client's error (the
 * database shut down mid-transaction: 57P01, or PgBouncer's "server conn crashed?") has no listener
 * of the pool's, and an 'error' event without a listener kills the process. That error reaches the
 * statement in flight, or the next one, and with it the request (answered 503, lib/error-response.ts);
 * the pool drops the client when it is released, as it is no longer queryable.
 */
function newPool(url: string, max: number, onError?: (err: Error) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    application_name: SERVER_APPLICATION_NAME,
    max,
    types: pgTypes as pg.CustomTypesConfig,
  });
  pool.on('error', (err) => onError?.(err));
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export function openPostgres(opts: PostgresOptions): DbHandle {
  const pool = newPool(opts.url, opts.poolSize ?? 10, opts.onConnectionError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: opts.log, plugins: opts.plugins });
  const probePool = newPool(opts.url, 1, opts.onConnectionError);
  const probeDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: probePool }) });
  const session = opts.directUrl ?? opts.url;
  const listener = pgListener(session, opts.onConnectionError);
  return {
    db,
    dialect: 'postgres',
    // Postgres already flushes concurrent commits to the WAL together.
    transact: (fn) => db.transaction().execute(fn),
    settled: async () => {},
    probeDb,
    // Postgres reads on its own processes already: the pool's connections serve reads and writes alike.
    readDb: db,
    ping: async () => void (await probePool.query('select 1')),
    maintain: async () => void (await analyzeOutgrown(pool)),
    // A burst of sales into a young database grows its tables by thousands of rows a second; the
    // check is one read of the catalogue and the tables' file sizes.
    maintainEveryMs: 2_000,
    stats: () => ({ pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } }),
    publish: async (channel, payload) => {
      checkPublish(channel, payload);
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    subscribe: listener.subscribe,
    // The table comes from the migrations; expired rows are cleared by the library every 5 minutes.
    sharedLimiter: (o) =>
      new RateLimiterPostgres({
        storeClient: unnamedStatements(pool),
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: true,
        inMemoryBlockOnConsumed: o.points + 1,
        ...o,
      }),
    migrate: async () => {
      const once = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: newPool(session, 1) }),
      });
      try {
        return await migrateToLatest(once);
      } finally {
        await once.destroy();
      }
    },
    close: async () => {
      await listener.close();
      await probeDb.destroy();
      await db.destroy();
    },
  };
}

/**
 * A real PgBouncer (Debian's `pgbouncer`, which .ci/run installs) in transaction mode in front of
 * the test PostgreSQL: what a managed database's pooler does to the server's connections. Every
 * database name reaches the same-named database, signed in as the test cluster's user.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startDaemon } from './daemon.js';
import { freePort } from './free-port.js';

export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

export interface PgBouncer {
  port: number;
  pid: number;
  /** `databaseUrl` (the cluster's) with its host and port replaced by the pooler's. */
  pooled(databaseUrl: string): string;
  /** Transactions and queries the pooler passed on (its SHOW STATS), summed over databases. */
  stats(): Promise<{ transactions: number; queries: number }>;
  stop(): Promise<void>;
}

/** `settings` are added to its [pgbouncer] section (e.g. `query_wait_timeout`). */
export async function startPgBouncer(clusterUrl: string, settings: Record<string, string | number> = {}): Promise<PgBouncer> {
  const cluster = new URL(clusterUrl);
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-pgbouncer-'));
  // PgBouncer refuses to run as root; as root it is started as `nobody`, who must read this folder.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const ini = [
    '[databases]',
    `* = host=${cluster.hostname} port=${cluster.port} user=${decodeURIComponent(cluster.username)} password=${decodeURIComponent(cluster.password)}`,
    '[pgbouncer]',
    `listen_addr = 127.0.0.1`,
    `listen_port = ${port}`,
    'auth_type = any',
    'pool_mode = transaction',
    'max_client_conn = 2000',
    'default_pool_size = 40',
    'admin_users = stats',
    'stats_users = stats',
    `unix_socket_dir =`,
    `pidfile = ${dir}/pgbouncer.pid`,
    `logfile = ${dir}/pgbouncer.log`,
    'ignore_startup_parameters = extra_float_digits',
    ...Object.entries(settings).map(([k, v]) => `${k} = ${v}`),
  ].join('\n');
  writeFileSync(path.join(dir, 'pgbouncer.ini'), `${ini}\n`);
  const args = [...(process.getuid?.() === 0 ? ['-u', 'nobody'] : []), path.join(dir, 'pgbouncer.ini')];
  const daemon = await startDaemon(PGBOUNCER, args, port, 'SIGINT');
  const pooled = (databaseUrl: string) => {
    const u = new URL(databaseUrl);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    return u.toString();
  };
  return {
    port,
    pid: daemon.pid,
    pooled,
    async stats() {
      const admin = new pg.Client({ host: '127.0.0.1', port, user: 'stats', database: 'pgbouncer' });
      await admin.connect();
      try {
        // The admin console speaks the simple protocol only.
        const rows = (await admin.query({ text: 'SHOW STATS', queryMode: 'simple' } as pg.QueryConfig)).rows as Array<
          Record<string, string>
        >;
        const sum = (k: string) => rows.reduce((n, r) => n + Number(r[k] ?? 0), 0);
        return { transactions: sum('total_xact_count'), queries: sum('total_query_count') };
      } finally {
        await admin.end();
      }
    },
    async stop() {
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

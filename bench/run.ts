/**
 * `npm run bench [-- --seconds 10 --db sqlite|postgres|both --only http,search,fiscal,sync,units,one-account,realtime,sdk,analytics,scale,by-org,fleet]`:
 * the foundation's HTTP figures,
 * server in its own process, autocannon on loopback, printed beside their targets.
 * Durable commits on both databases (SQLite's WAL synced before an answer, Postgres fsync on).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { newId } from '@duka/shared';
import { sql } from 'kysely';
import { createDb } from '../server/src/db/create-db.js';
import { analyticsBenchmarks } from './analytics.js';
import { byOrgBenchmarks } from './by-org.js';
import { fiscalSaleBenchmark, startBenchTra } from './fiscal.js';
import { fleetBenchmarks } from './fleet.js';
import { oneAccountBenchmarks } from './one-account.js';
import {
  BENCH_PASSWORD,
  freePort,
  measure,
  printTable,
  registerOwner,
  type Row,
  startBenchServer,
  startProcess,
  statementsPer,
  stopProcess,
  tokenUser,
} from './lib.js';
import { batchPushBenchmark, batchSaleBenchmark, type BenchPharmacy, openBenchPharmacy } from './pharmacy.js';
import { realtimeBenchmarks, wsCeiling } from './realtime.js';
import { sdkBenchmarks } from './sdk.js';
import { scaleOutBenchmarks } from './scale-out.js';
import { BENCH_GENERICS, searchBenchmarks } from './search.js';
import { syncBenchmarks } from './sync.js';
import { unitsBenchmarks } from './units.js';

const GROUPS = [
  'http',
  'search',
  'fiscal',
  'sync',
  'units',
  'one-account',
  'realtime',
  'sdk',
  'analytics',
  'scale',
  'by-org',
  'fleet',
] as const;
const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    db: { type: 'string', default: 'both' },
    only: { type: 'string', default: GROUPS.join(',') },
  },
});
// 10 s a row; the fleet's measured window is 60 s unless --seconds says otherwise.
const seconds = Number(values.seconds ?? 10);
const databases = values.db === 'both' ? ['sqlite', 'postgres'] : [values.db!];
// A part of the run (e.g. `--only http,sync` to compare the write path before and after a change).
const only = new Set(values.only!.split(','));
const unknown = [...only].filter((g) => !(GROUPS as readonly string[]).includes(g));
if (unknown.length) throw new Error(`--only takes ${GROUPS.join(', ')}; not ${unknown.join(', ')}`);
const rows: Row[] = [];
// Each group's rows are printed as they come, so a run stopped midway keeps what it measured.
const keep = rows.push.bind(rows);
rows.push = (...done: Row[]) => {
  printTable(done);
  return keep(...done);
};

if (only.has('http')) {
  const ceilingPort = await freePort();
  const ceiling = await startProcess('bench/ceiling-server.ts', { PORT: String(ceilingPort) }, `http://127.0.0.1:${ceilingPort}/ping`);
  const c = await measure({ url: `http://127.0.0.1:${ceilingPort}/ping`, connections: 32, seconds });
  rows.push({ scenario: 'bare Hono JSON route (ceiling)', database: '-', m: c, target: 'ceiling', met: null });
  await stopProcess(ceiling);
}
if (only.has('realtime')) rows.push(await wsCeiling());
// PostgreSQL behind a pooler and a balancer, in a cluster of its own.
if (only.has('scale')) rows.push(...(await scaleOutBenchmarks(seconds)));
// PostgreSQL with its tenant tables partitioned by organisation, beside the plain one.
if (only.has('by-org')) rows.push(...(await byOrgBenchmarks(seconds)));
// N tills at work, each database on a server of its own; the capacity search after.
if (only.has('fleet')) rows.push(...(await fleetBenchmarks(databases, Number(values.seconds ?? 60))));
// Issue 49: 20 tills of one account pushing their queues, each database on a server of its own.
if (only.has('one-account')) for (const database of databases) rows.push(...(await oneAccountBenchmarks(database)));
const perDatabase = [...only].some((g) => !['scale', 'by-org', 'fleet', 'one-account'].includes(g));

for (const database of perDatabase ? databases : []) {
  const tra = await startBenchTra();
  // The browser till rows (sdk) build their page into the folder the server serves as its till app.
  const tillPage = mkdtempSync(path.join(tmpdir(), 'duka-bench-till-page-'));
  const bench = await startBenchServer(database, { TRA_TEST_URL: tra.tra.url, WEB_DIST_DIR: tillPage });
  const { base, env, dbOpts } = bench;
  const server = bench.process;
  const account = { phone: '0754000111', password: BENCH_PASSWORD };
  const token = await registerOwner(base, account.phone, 'Bench Duka');
  // The batch-tracked variants' pharmacy, opened once for the sale and push rows.
  let pharmacy: BenchPharmacy | undefined;
  const benchPharmacy = async () => (pharmacy ??= await openBenchPharmacy(base, '0754000333', dbOpts));

  const productIds: string[] = [];
  // `--only search`: the catalogue seeded and searched, nothing else (issue 53).
  if (only.has('http') || only.has('search')) {
    if (only.has('http')) {
      const health = await measure({ url: `${base}/health/live`, connections: 32, seconds });
      rows.push({
        scenario: 'GET /health/live (all middleware)',
        database,
        m: health,
        target: 'p99 <= 10 ms',
        met: health.p99 <= 10 && health.errors === 0,
      });
    }
    const db = createDb({ ...dbOpts, poolSize: 2 });
    const [{ org_id: orgId, store_id: storeId }] = [
      await db.db.selectFrom('users').select(['org_id', 'store_id']).where('id', '=', tokenUser(token)).executeTakeFirstOrThrow(),
    ];
    const now = Date.now();
    for (let batch = 0; batch < 50; batch++) {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const n = batch * 1000 + i;
        const id = newId();
        productIds.push(id);
        return {
          id,
          org_id: orgId!,
          name: `${['Sukari', 'Unga', 'Mchele', 'Sabuni', 'Mafuta', 'Chai', 'Maji', 'Soda'][n % 8]} ${n}`,
          sku: `SKU-${n}`,
          // Every 50th product a medicine, so that search finds some by generic name (bench/search.ts).
          generic_name: n % 50 === 25 ? BENCH_GENERICS[((n - 25) / 50) % BENCH_GENERICS.length]! : null,
          selling_price: 1000 + (n % 50) * 100,
          cost_price: 800,
          created_at: now,
          updated_at: now,
        };
      });
      await db.db.insertInto('products').values(rows).execute();
      await db.db
        .insertInto('product_stock')
        .values(rows.map((r) => ({ org_id: orgId!, store_id: storeId!, product_id: r.id, qty: 1_000_000_000, updated_at: now })))
        .execute();
    }
    // A bulk load leaves planner statistics (and Postgres' GIN pending lists) stale; autovacuum and
    // the server's hourly PRAGMA optimize catch up in production: measure that steady state at once.
    await sql.raw(dbOpts.url ? 'vacuum analyze products, product_stock' : 'analyze').execute(db.db);
    await db.close();

    rows.push(...(await searchBenchmarks(base, token, database, seconds, server.pid)));
  }
  if (only.has('http')) {
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const saleUrl = `${base}/api/v1/pos/sale`;
    const saleBody = JSON.stringify({
      lines: [0, 1, 2].map((i) => ({ product_id: productIds[i * 7919]!, qty: 1 })),
      payment_method: 'Cash',
    });
    const sale = await measure({ url: saleUrl, method: 'POST', headers: auth, body: saleBody, connections: 32, seconds });
    rows.push({
      scenario: 'POST /pos/sale, 3 lines, 32 conn',
      database,
      m: sale,
      target: database === 'sqlite' ? '>= 1500/s, p99 <= 50 ms' : '>= 800/s, p99 <= 100 ms',
      met: sale.errors === 0 && (database === 'sqlite' ? sale.rps >= 1500 && sale.p99 <= 50 : sale.rps >= 800 && sale.p99 <= 100),
      statements: await statementsPer(5, () => fetch(saleUrl, { method: 'POST', headers: auth, body: saleBody })),
    });
    const plainSale = rows.at(-1)!;
    rows.push(await batchSaleBenchmark(base, database, seconds, await benchPharmacy(), plainSale));

    const me = await measure({
      url: `${base}/api/v1/accounts/me`,
      headers: { authorization: `Bearer ${token}` },
      connections: 32,
      seconds,
    });
    rows.push({
      scenario: 'GET /accounts/me (JWT + 3 reads), 32 conn',
      database,
      m: me,
      target: 'p99 <= 50 ms',
      met: me.p99 <= 50 && me.errors === 0,
    });
    // Eight cashiers signing in, not one account eight times at once: the sign-in guard counts a try
    // before checking its password, so five at once of one account from one address take its lock
    // (423) by design (sign-in-guard.ts).
    const cashiers = [account];
    for (let i = 1; i < 8; i++) {
      const phone = `07540009${String(i).padStart(2, '0')}`;
      await registerOwner(base, phone, `Duka ${i}`);
      cashiers.push({ phone, password: account.password });
    }
    const login = await measure({
      url: `${base}/api/v1/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      bodies: cashiers.map((c) => JSON.stringify({ identifier: c.phone, password: c.password })),
      connections: 8,
      seconds,
    });
    rows.push({
      scenario: 'POST /auth/login (scrypt), 8 conn, 8 accounts in turn',
      database,
      m: login,
      target: 'p99 <= 500 ms',
      met: login.p99 <= 500 && login.errors === 0,
    });
  }

  // Beside a twin shop's plain sale of its own, so that `--only fiscal` needs no other row.
  if (only.has('http') || only.has('fiscal')) rows.push(await fiscalSaleBenchmark(base, database, seconds, tra, server.pid!));
  if (only.has('sync')) {
    const sync = await syncBenchmarks(base, token, database, dbOpts, server.pid);
    rows.push(...sync.rows, await batchPushBenchmark(base, database, await benchPharmacy(), sync.oneStore, server.pid));
  }
  // Issue 51: weighed and split-tender sales and pushes beside whole-unit ones, in turn.
  if (only.has('units')) rows.push(...(await unitsBenchmarks(base, database, seconds, dbOpts, server.pid)));
  if (only.has('realtime')) rows.push(...(await realtimeBenchmarks({ base, server, env, database, dbOpts, account, seconds })));
  if (only.has('sdk'))
    rows.push(...(await sdkBenchmarks(base, { phone: '0754000222', password: 'benchmark2' }, database, dbOpts, tillPage)));
  if (only.has('analytics')) rows.push(...(await analyticsBenchmarks(base, database, dbOpts)));

  await bench.stop();
  await tra.tra.stop();
  rmSync(tillPage, { recursive: true, force: true });
}

console.log('\nAll rows together:');
printTable(rows);

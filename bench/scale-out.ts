/**
 * `npm run bench -- --only scale`: selling and pushing on PostgreSQL as issue 34 deploys it, each in
 * one run beside the others: one instance connected directly, one instance through PgBouncer
 * (transaction mode), and two instances through PgBouncer behind nginx (round robin). Every
 * instance, the pooler, the balancer, PostgreSQL and the load generator share this machine's cores,
 * so the two-instance row shows what the pooler and balancer cost, not what a second machine adds.
 * The three set-ups are measured twice, in turn, so that the spread of a noisy machine shows.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { createDb } from '../server/src/db/create-db.js';
import { LOAD_RUN_LIMITS } from '../server/src/env.js';
import { startNginx } from '../test/setup/nginx.js';
import { startPgBouncer } from '../test/setup/pgbouncer.js';
import { freePort, measure, type Row, startPostgres, startProcess, stopProcess, tokenUser } from './lib.js';
import { offlineSales, seedProducts, registerTill, type Till, timePushes } from './push-load.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const TILLS = 20;
export const SALES_PER_TILL = 250;
export const BATCH = 50;
const SECRET = 'bench-secret-bench-secret-bench-secret-01';

type Setup = 'direct, 1 instance' | 'PgBouncer, 1 instance' | 'PgBouncer + nginx, 2 instances';
const SETUPS: Setup[] = ['direct, 1 instance', 'PgBouncer, 1 instance', 'PgBouncer + nginx, 2 instances'];

async function post(base: string, route: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const res = await fetch(`${base}/api/v1${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${route} → ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: any }).data;
}

/** One server instance on PostgreSQL (`database`: DATABASE_URL and, behind a pooler, DATABASE_DIRECT_URL), ready. */
export async function startPgInstance(database: Record<string, string>) {
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'duka-bench-pg-instance-')),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    JWT_SECRET: SECRET,
    ...LOAD_RUN_LIMITS,
    ...database,
  };
  return { port, process: await startProcess('server/src/index.ts', env, `http://127.0.0.1:${port}/health/ready`) };
}

/** A shop of 300 products with stock and prices, and 20 tills registered in it. */
export async function openShop(base: string, directUrl: string, n: number) {
  const reg = await post(base, '/auth/register', {
    first_name: 'Bench',
    last_name: 'Scale',
    phone: `075410${String(n).padStart(4, '0')}`,
    password: 'benchmark1',
    confirm_password: 'benchmark1',
    shop: { name: `Scale ${n}` },
  });
  const token = reg.tokens.access_token as string;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const db = createDb({ url: directUrl, poolSize: 2 });
  const { org_id: orgId, store_id: storeId } = await db.db
    .selectFrom('users')
    .select(['org_id', 'store_id'])
    .where('id', '=', tokenUser(token))
    .executeTakeFirstOrThrow();
  await db.db.updateTable('plans').set({ max_stores: null, max_staff: null, max_products: null }).where('code', '=', 'free').execute();
  const products = await seedProducts(db, orgId!, [storeId!], 'SC');
  await sql.raw('vacuum analyze').execute(db.db);
  await db.close();
  const tills: Till[] = await Promise.all(
    Array.from({ length: TILLS }, async (_, d) => ({
      id: await registerTill(base, headers, `Till ${d + 1}`),
      headers,
      mutations: offlineSales(products, d, SALES_PER_TILL, `S${n}-`),
    })),
  );
  return { headers, products, tills };
}

export async function scaleOutBenchmarks(seconds: number): Promise<Row[]> {
  const cluster = await startPostgres();
  const adminUrl = cluster.url.replace(/\/[^/]+$/, '/postgres');
  const pooler = await startPgBouncer(cluster.url);
  const rows: Row[] = [];
  try {
    for (const [n, setup] of [...SETUPS, ...SETUPS].entries()) {
      const round = n < SETUPS.length ? 1 : 2;
      const name = `duka_scale_${n}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const directUrl = cluster.url.replace(/\/[^/]+$/, `/${name}`);
      const pooled = setup !== 'direct, 1 instance';
      const instances = setup.endsWith('2 instances') ? 2 : 1;
      const servers = [];
      const ports: number[] = [];
      for (let i = 0; i < instances; i++) {
        // One after the other: the first migrates the new database.
        const instance = await startPgInstance(
          pooled ? { DATABASE_URL: pooler.pooled(directUrl), DATABASE_DIRECT_URL: directUrl } : { DATABASE_URL: directUrl },
        );
        servers.push(instance.process);
        ports.push(instance.port);
      }
      const balancer = instances > 1 ? await startNginx(ports) : null;
      const base = balancer?.url ?? `http://127.0.0.1:${ports[0]}`;
      try {
        const shop = await openShop(base, directUrl, n);
        const saleBody = JSON.stringify({
          lines: [0, 1, 2].map((i) => ({ product_id: shop.products[i * 97]!.id, qty: 1 })),
          payment_method: 'Cash',
        });
        const sale = await measure({
          url: `${base}/api/v1/pos/sale`,
          method: 'POST',
          headers: shop.headers,
          body: saleBody,
          connections: 32,
          seconds,
        });
        rows.push({
          scenario: `POST /pos/sale, 3 lines, 32 conn: ${setup} (round ${round})`,
          database: 'postgres',
          m: sale,
          target: 'figure',
          met: null,
        });
        const pushed = await timePushes(base, shop.tills, BATCH);
        rows.push({
          scenario: `push ${TILLS * SALES_PER_TILL} offline sales, ${TILLS} tills in one store, batches of ${BATCH}: ${setup} (round ${round})`,
          database: 'postgres',
          m: pushed,
          target: 'figure',
          met: null,
        });
      } finally {
        await balancer?.stop();
        for (const s of servers) await stopProcess(s);
      }
    }
  } finally {
    await pooler.stop();
    await cluster.stop();
  }
  // Against the direct connection measured in the same round.
  const perRound = SETUPS.length * 2;
  for (const [i, r] of rows.entries()) {
    const direct = rows[i - (i % perRound) + (r.scenario.startsWith('POST') ? 0 : 1)]!;
    if (direct !== r) r.ofCeiling = `${Math.round((100 * r.m.rps) / direct.m.rps)} % of direct`;
  }
  return rows;
}

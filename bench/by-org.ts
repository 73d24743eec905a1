import pg from 'pg';
import { createDb } from '../server/src/db/create-db.js';
import { migrateToLatest } from '../server/src/db/migrate.js';
import { partitionByOrg } from '../test/setup/partition-by-org.js';
import { type Measured, measure, median, type Row, startPostgres, stopProcess } from './lib.js';
import { timePushes } from './push-load.js';
import { BATCH, openShop, SALES_PER_TILL, startPgInstance, TILLS } from './scale-out.js';

const ROUNDS = 3;
type Layout = 'plain' | 'partitioned by org';

async function measureLayout(clusterUrl: string, layout: Layout, n: number, seconds: number) {
  const name = `duka_by_org_${n}`;
  const admin = new pg.Client({ connectionString: clusterUrl.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = clusterUrl.replace(/\/[^/]+$/, `/${name}`);
  if (layout === 'partitioned by org') {
    const db = createDb({ url, poolSize: 1 });
    await migrateToLatest(db.db);
    await db.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await partitionByOrg(client);
    await client.end();
  }
  const { port, process: server } = await startPgInstance({ DATABASE_URL: url });
  try {
    const base = `http://127.0.0.1:${port}`;
    const shop = await openShop(base, url, 100 + n);
    const body = JSON.stringify({
      lines: [0, 1, 2].map((i) => ({ product_id: shop.products[i * 97]!.id, qty: 1 })),
      payment_method: 'Cash',
    });
    const sale = await measure({ url: `${base}/api/v1/pos/sale`, method: 'POST', headers: shop.headers, body, connections: 32, seconds });
    const push = await timePushes(base, shop.tills, BATCH);
    return { sale, push };
  } finally {
    await stopProcess(server);
  }
}

const spread = (runs: Measured[]) => `${Math.min(...runs.map((r) => r.rps))}-${Math.max(...runs.map((r) => r.rps))}/s`;

function summary(scenario: string, layout: Layout, runs: Measured[], plain: Measured[] | null): Row {
  const m: Measured = {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
  const plainRps = plain ? median(plain.map((r) => r.rps)) : null;
  return {
    scenario: `${scenario}: ${layout} (median of ${runs.length}, ${spread(runs)})`,
    database: 'postgres',
    m,
    target: plainRps ? '>= 85 % of plain' : 'baseline',
    met: plainRps ? m.errors === 0 && m.rps >= 0.85 * plainRps : null,
    ofCeiling: plainRps ? `${Math.round((100 * m.rps) / plainRps)} % of plain` : undefined,
  };
}

export async function byOrgBenchmarks(seconds: number): Promise<Row[]> {
  const cluster = await startPostgres();
  const runs: Record<Layout, { sale: Measured[]; push: Measured[] }> = {
    plain: { sale: [], push: [] },
    'partitioned by org': { sale: [], push: [] },
  };
  try {
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const order: Layout[] = round % 2 === 0 ? ['plain', 'partitioned by org'] : ['partitioned by org', 'plain'];
      for (const layout of order) {
        const { sale, push } = await measureLayout(cluster.url, layout, n++, seconds);
        runs[layout].sale.push(sale);
        runs[layout].push.push(push);
      }
    }
  } finally {
    await cluster.stop();
  }
  const saleScenario = 'POST /pos/sale, 3 lines, 32 conn';
  const pushScenario = `push ${TILLS * SALES_PER_TILL} offline sales, ${TILLS} tills in one store, batches of ${BATCH}`;
  return [
    summary(saleScenario, 'plain', runs.plain.sale, null),
    summary(saleScenario, 'partitioned by org', runs['partitioned by org'].sale, runs.plain.sale),
    summary(pushScenario, 'plain', runs.plain.push, null),
    summary(pushScenario, 'partitioned by org', runs['partitioned by org'].push, runs.plain.push),
  ];
}

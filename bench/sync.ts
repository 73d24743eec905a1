/**
 * Sync benchmarks (issues 5 and 17): 10,000 offline sales pushed by 20 tills over 4 stores, then
 * by 20 tills of one store, each beside its ceiling (raw batched inserts of the same sales measured
 * in the same run) and the statements the server ran per push of 100; then the re-push of applied
 * sales. Every store's tills push with that store's token, got through the public API (the owner's
 * store switch), since a push's store comes from its token only.
 */
import { sql } from 'kysely';
import { createDb } from '../server/src/db/create-db.js';
import { rawSaleWrites } from './ceiling-writes.js';
import { median, ofCeiling, type Row, tokenUser } from './lib.js';
import { offlineSales, seedProducts, push, pushStatements, registerTill, settle, type Till, timePushes } from './push-load.js';

const TILLS = 20;
const SALES_PER_TILL = 500;
const BATCH = 100;
const STORES = 4;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function post(base: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${base}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: any };
  if (!res.ok) throw new Error(`POST ${path} → ${res.status}: ${JSON.stringify(json)}`);
  return json.data;
}

export interface SyncRows {
  rows: Row[];
  /** The push of 20 tills in one store: the shape of the batch-tracked push, which is compared with it. */
  oneStore: Row;
}

export async function syncBenchmarks(
  base: string,
  token: string,
  database: string,
  dbOpts: { url?: string; sqliteFile?: string },
  serverPid?: number,
): Promise<SyncRows> {
  const owner = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const db = createDb({ ...dbOpts, poolSize: 2 });
  const { org_id: orgId, store_id: homeStore } = await db.db
    .selectFrom('users')
    .select(['org_id', 'store_id'])
    .where('id', '=', tokenUser(token))
    .executeTakeFirstOrThrow();
  // 3 more stores for the tills, 4 of their own for the ceiling's raw writes.
  const opened = async (name: string) => ((await post(base, '/stores', { name }, owner)) as { id: string }).id;
  const storeIds = [homeStore!, ...(await Promise.all(['Tawi 2', 'Tawi 3', 'Tawi 4'].map(opened)))];
  const ceilingStores = await Promise.all(['Dari 1', 'Dari 2', 'Dari 3', 'Dari 4'].map(opened));
  const storeHeaders: Array<Record<string, string>> = [];
  for (const store_id of storeIds) {
    const { tokens } = await post(base, '/accounts/switch-store', { store_id }, storeHeaders.at(-1) ?? owner);
    storeHeaders.push({ authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' });
  }

  const products = await seedProducts(db, orgId!, [...storeIds, ...ceilingStores], 'SYNC');
  await sql.raw(dbOpts.url ? 'vacuum analyze' : 'analyze').execute(db.db);
  await db.close();

  const tillsIn = (store: (d: number) => number, prefix: string): Promise<Till[]> =>
    Promise.all(
      Array.from({ length: TILLS }, async (_, d) => {
        const headers = storeHeaders[store(d)]!;
        return {
          id: await registerTill(base, headers, `Till ${prefix}${d + 1}`),
          headers,
          mutations: offlineSales(products, d, SALES_PER_TILL, prefix),
        };
      }),
    );
  const total = TILLS * SALES_PER_TILL;
  const spread = await tillsIn((d) => d % STORES, 'T');
  const pushSpread = await timePushes(base, spread, BATCH, serverPid);
  const pushOne = await timePushes(base, await tillsIn(() => 0, 'U'), BATCH, serverPid);
  const statements = await pushStatements(base, storeHeaders[0]!, offlineSales(products, 999, 3 * BATCH, 'S'), BATCH);

  const shop = { orgId: orgId!, cashierId: tokenUser(token), products };
  const ceilingSpread: Row = {
    scenario: `ceiling: raw batched inserts of the same ${total} sales, ${STORES} stores x 1 writer, 1 durable transaction per ${BATCH}`,
    database,
    m: await rawSaleWrites(dbOpts, { ...shop, storeIds: ceilingStores }, total, BATCH),
    target: 'ceiling',
    met: null,
  };
  const ceilingOne: Row = {
    scenario: `ceiling: the same raw inserts, 1 store x 1 writer`,
    database,
    m: await rawSaleWrites(dbOpts, { ...shop, storeIds: ceilingStores.slice(0, 1) }, total, BATCH),
    target: 'ceiling',
    met: null,
  };

  const sqlite = database === 'sqlite';
  // Issue 39: raised once the earlier ones were met; a till's push p99 is held to 1 s on every row.
  const [rate, oneRate, p99] = sqlite ? [5000, 4000, 1000] : [3000, 2500, 1000];
  const rows: Row[] = [
    {
      scenario: `push ${total} offline sales (3 lines), ${TILLS} tills over ${STORES} stores, batches of ${BATCH}`,
      database,
      m: pushSpread,
      target: `>= ${rate} sales/s; push p99 <= ${p99} ms`,
      met: pushSpread.errors === 0 && pushSpread.rps >= rate && pushSpread.p99 <= p99,
      statements,
      ofCeiling: ofCeiling(pushSpread.rps, ceilingSpread, `raw, ${STORES} stores`),
    },
  ];
  const oneStore: Row = {
    scenario: `same, all ${TILLS} tills in one store`,
    database,
    m: pushOne,
    target: `>= ${oneRate} sales/s; push p99 <= ${p99} ms`,
    met: pushOne.errors === 0 && pushOne.rps >= oneRate && pushOne.p99 <= p99,
    statements,
    ofCeiling: ofCeiling(pushOne.rps, ceilingOne, 'raw, 1 store'),
  };
  rows.push(oneStore, ceilingSpread, ceilingOne);

  // Re-push of 1,000 applied sales (two pushes of 500, the most a push may carry), from tills of two stores: each answered `duplicate`.
  const again: number[] = [];
  const repushStatements: number[] = [];
  let wrong = 0;
  await settle();
  for (let round = 0; round < 10; round++) {
    const t0 = performance.now();
    for (const till of spread.slice(0, 2)) {
      const res = await push(base, till, till.mutations.slice(0, 500));
      const body = (await res.json()) as { data?: { results: Array<{ status: string }> } };
      if (res.status !== 200 || body.data!.results.some((r) => r.status !== 'duplicate')) wrong++;
      repushStatements.push(Number(res.headers.get('x-db-statements') ?? NaN));
    }
    again.push(performance.now() - t0);
  }
  again.sort((a, b) => a - b);
  rows.push({
    scenario: 're-push of 1,000 applied sales (2 pushes of 500; stmts per push)',
    database,
    m: { rps: Math.round(1000 / (pct(again, 50) / 1000)), p50: Math.round(pct(again, 50)), p99: Math.round(pct(again, 99)), errors: wrong },
    target: '<= 25 ms',
    met: wrong === 0 && pct(again, 99) <= 25,
    statements: median(repushStatements),
  });
  return { rows, oneStore };
}

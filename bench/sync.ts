/**
 * Sync benchmarks (issue 5): offline sales pushed by many tills, re-push of applied batches.
 * Run by `npm run bench`; prints its rows into the same table.
 */
import { newId } from '@duka/shared';
import { sql } from 'kysely';
import { createDb } from '../server/src/db/create-db.js';
import { type Measured, type Row, tokenUser } from './lib.js';

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function syncBenchmarks(base: string, token: string, database: string, dbOpts: { url?: string; sqliteFile?: string }): Promise<Row[]> {
  const rows: Row[] = [];
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const db = createDb({ ...dbOpts, poolSize: 2 });
  const { org_id: orgId, store_id: storeId } = await db.db.selectFrom('users').select(['org_id', 'store_id']).where('id', '=', tokenUser(token)).executeTakeFirstOrThrow();
  const now = Date.now() - 3_600_000;
  const products = Array.from({ length: 300 }, (_, i) => ({ id: newId(), org_id: orgId!, name: `Bidhaa ${i}`, sku: `SYNC-${i}`, selling_price: 50_000 + i * 100, cost_price: 40_000, created_at: now, updated_at: now }));
  await db.db.insertInto('products').values(products).execute();
  await db.db.insertInto('product_stock').values(products.map((p) => ({ store_id: storeId!, product_id: p.id, qty: 1_000_000_000, updated_at: now }))).execute();
  await db.db
    .insertInto('product_prices')
    .values(products.map((p) => ({ id: newId(), org_id: orgId!, product_id: p.id, selling_price: p.selling_price, wholesale_price: null, cost_price: p.cost_price, tax_rate: 1800, effective_from: now, changed_by: null })))
    .execute();
  await sql.raw(dbOpts.url ? 'vacuum analyze' : 'analyze').execute(db.db);
  await db.close();

  const DEVICES = 20;
  const SALES_PER_DEVICE = 500;
  const BATCH = 100;
  const devices = await Promise.all(
    Array.from({ length: DEVICES }, async (_, d) => {
      const id = newId();
      await fetch(`${base}/api/v1/sync/devices`, { method: 'POST', headers, body: JSON.stringify({ device_id: id, name: `Till ${d + 1}` }) });
      const mutations = Array.from({ length: SALES_PER_DEVICE }, (_, i) => {
        const lines = [0, 1, 2].map((k) => {
          const p = products[(d * 37 + i * 3 + k) % products.length]!;
          return { product_id: p.id, qty: 1 + (k % 2), unit_price: p.selling_price / 100 };
        });
        return { id: newId(), seq: i + 1, type: 'sale.create', created_at: new Date(now + 60_000 + i * 1000).toISOString(), payload: { id: newId(), client_receipt_number: `T${d + 1}-${i + 1}`, lines, payment_method: 'Cash' } };
      });
      return { id, mutations };
    }),
  );

  const total = DEVICES * SALES_PER_DEVICE;
  const push = await timePushes(base, headers, devices, BATCH);
  rows.push({
    scenario: `push ${total} offline sales, 3 lines, ${DEVICES} tills x batches of ${BATCH}`,
    database,
    m: push,
    target: database === 'sqlite' ? '>= 4000 sales/s; push p99 <= 100 ms' : 'push p99 <= 100 ms',
    met: push.errors === 0 && push.p99 <= 100 && (database !== 'sqlite' || push.rps >= 4000),
  });

  // Re-push of 1,000 applied sales (two pushes of 500, the most a push may carry).
  const dev = devices[0]!;
  const again: number[] = [];
  for (let round = 0; round < 10; round++) {
    const t0 = performance.now();
    for (const half of [dev.mutations.slice(0, 500), devices[1]!.mutations.slice(0, 500)].map((m, k) => ({ m, id: devices[k]!.id }))) {
      await fetch(`${base}/api/v1/sync/push`, { method: 'POST', headers, body: JSON.stringify({ device_id: half.id, mutations: half.m }) }).then((r) => r.json());
    }
    again.push(performance.now() - t0);
  }
  again.sort((a, b) => a - b);
  rows.push({
    scenario: 're-push of 1,000 applied sales (2 pushes of 500)',
    database,
    m: { rps: Math.round(1000 / (pct(again, 50) / 1000)), p50: Math.round(pct(again, 50)), p99: Math.round(pct(again, 99)), errors: 0 },
    target: '<= 25 ms',
    met: pct(again, 99) <= 25,
  });
  return rows;
}

/** Every device pushes its sales in batches of `batch`, all devices at once: sales/s and the push latencies. */
export async function timePushes(base: string, headers: Record<string, string>, devices: Array<{ id: string; mutations: unknown[] }>, batch: number): Promise<Measured> {
  const latencies: number[] = [];
  let failed = 0;
  let total = 0;
  const started = performance.now();
  await Promise.all(
    devices.map(async (dev) => {
      for (let i = 0; i < dev.mutations.length; i += batch) {
        const t0 = performance.now();
        const res = await fetch(`${base}/api/v1/sync/push`, { method: 'POST', headers, body: JSON.stringify({ device_id: dev.id, mutations: dev.mutations.slice(i, i + batch) }) });
        const body = (await res.json()) as { data?: { results: Array<{ status: string }> } };
        latencies.push(performance.now() - t0);
        if (res.status !== 200 || body.data!.results.some((r) => r.status !== 'applied')) failed++;
      }
      total += dev.mutations.length;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: Math.round(total / seconds), p50: Math.round(pct(latencies, 50)), p99: Math.round(pct(latencies, 99)), errors: failed };
}

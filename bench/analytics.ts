/**
 * Analytics benchmarks (issue 8): a shop with a year of history (100,000 sales of 3 lines in one
 * store, bulk-inserted in SQL) and the owner's analytics routes timed one request at a time. The
 * first request after the seed builds the daily rollups (timed apart); the others read them.
 * Run by `npm run bench` (rows join its table), or alone:
 * `node --import tsx bench/analytics.ts [--db sqlite|postgres|both] [--sales 100000]`.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { newId } from '@duka/shared';
import { sql } from 'kysely';
import { createDb } from '../server/src/db/create-db.js';
import { printTable, type Row, startBenchServer } from './lib.js';

const DAY = 86_400_000;
const METHODS = ['Cash', 'Cash', 'Cash', 'M-Pesa', 'M-Pesa', 'Tigo Pesa', 'Bank', 'Credit'] as const;
/** fetch, once more if the server had closed an idle keep-alive connection (as after the long seeding). */
const request = (url: string, init?: RequestInit) => fetch(url, init).catch(() => fetch(url, init));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** A year of sales for the owner's store: `count` sales of 3 lines, 2 % refunded, 1 % voided, 10 % to named customers. */
async function seedHistory(dbOpts: { url?: string; sqliteFile?: string }, userId: string, count: number) {
  const db = createDb({ ...dbOpts, poolSize: 2 });
  const { org_id: orgId, store_id: storeId } = await db.db
    .selectFrom('users')
    .select(['org_id', 'store_id'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const products = Array.from({ length: 500 }, (_, i) => ({
    id: newId(),
    org_id: orgId!,
    name: `Bidhaa ${i}`,
    sku: `AN-${i}`,
    selling_price: 100_000 + (i % 40) * 5_000,
    cost_price: 70_000 + (i % 40) * 4_000,
    created_at: now - 400 * DAY,
    updated_at: now - 400 * DAY,
  }));
  await db.db.insertInto('products').values(products).execute();
  await db.db
    .insertInto('product_stock')
    .values(products.map((p) => ({ org_id: orgId!, store_id: storeId!, product_id: p.id, qty: 10_000, updated_at: now })))
    .execute();
  const customers = Array.from({ length: 200 }, (_, i) => ({
    id: newId(),
    org_id: orgId!,
    name: `Mteja ${i}`,
    phone: null,
    email: null,
    notes: null,
    created_at: now - 400 * DAY,
    updated_at: now - 400 * DAY,
  }));
  await db.db.insertInto('customers').values(customers).execute();

  const BATCH = 400;
  for (let start = 0; start < count; start += BATCH) {
    const txs = [];
    const lines = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const id = newId();
      const at = now - 365 * DAY + Math.floor(((i + 0.5) / count) * 365 * DAY);
      const method = METHODS[i % METHODS.length]!;
      const status = i % 100 === 7 ? 'refunded' : i % 100 === 13 ? 'void' : method === 'Credit' ? 'credit' : 'paid';
      let total = 0;
      for (let k = 0; k < 3; k++) {
        const p = products[(i * 7 + k * 131) % products.length]!;
        const qty = 1 + ((i + k) % 3);
        total += p.selling_price * qty;
        lines.push({
          id: newId(),
          org_id: orgId!,
          transaction_id: id,
          product_id: p.id,
          product_name: p.name,
          qty,
          unit_price: p.selling_price,
          line_total: p.selling_price * qty,
          cost_price: p.cost_price - (i % 2) * 1_000,
        });
      }
      txs.push({
        id,
        org_id: orgId!,
        store_id: storeId!,
        number: i + 1,
        receipt_number: `AN-${String(i + 1).padStart(6, '0')}`,
        client_receipt_number: null,
        status: status as 'paid' | 'credit' | 'refunded' | 'void',
        payment_method: method,
        payment_reference: null,
        subtotal: total,
        discount: 0,
        tax: 0,
        total,
        customer_id: i % 10 === 0 || method === 'Credit' ? customers[i % customers.length]!.id : null,
        customer_name: null,
        customer_phone: null,
        till_number: null,
        notes: null,
        cashier_id: userId,
        device_id: null,
        client_created_at: null,
        refund_reason: null,
        refunded_at: status === 'refunded' ? at + 3_600_000 : null,
        refunded_by: null,
        void_reason: null,
        voided_at: status === 'void' ? at + 60_000 : null,
        voided_by: null,
        created_at: at,
        updated_at: at,
      });
    }
    await db.db.insertInto('transactions').values(txs).execute();
    await db.db.insertInto('transaction_lines').values(lines).execute();
  }
  await db.db.updateTable('stores').set({ last_number: count }).where('id', '=', storeId!).execute();
  await sql.raw(dbOpts.url ? 'vacuum analyze' : 'analyze').execute(db.db);
  await db.close();
  return { from: new Date(now - 364 * DAY).toISOString().slice(0, 10) };
}

export async function analyticsBenchmarks(
  base: string,
  database: string,
  dbOpts: { url?: string; sqliteFile?: string },
  sales = 100_000,
): Promise<Row[]> {
  // Its own shop: the pharmacy bench's owner has 0754000333, the SDK's 0754000222.
  const account = { phone: '0754000444', password: 'benchmark4' };
  const reg = await fetch(`${base}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Takwimu',
      last_name: 'Bench',
      ...account,
      confirm_password: account.password,
      shop: { name: 'Takwimu Duka' },
    }),
  });
  if (!reg.ok) throw new Error(`analytics bench: register answered ${reg.status}: ${await reg.text()}`);
  const data = ((await reg.json()) as { data: { user_id: string; tokens: { access_token: string } } }).data;
  const t0 = performance.now();
  const { from } = await seedHistory(dbOpts, data.user_id, sales);
  const seeded = Math.round((performance.now() - t0) / 1000);
  const login = async () => {
    const res = await request(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: account.phone, password: account.password }),
    });
    return ((await res.json()) as { data: { access_token: string } }).data.access_token;
  };
  let token = await login();
  const year = `date_from=${from}`;
  // The first analytics request after the bulk seed builds the daily rollups of the whole year.
  const cold = performance.now();
  const first = await request(`${base}/api/v1/analytics/summary?${year}`, { headers: { authorization: `Bearer ${token}` } });
  await first.arrayBuffer();
  const build = Math.round(performance.now() - cold);
  const rows: Row[] = [
    {
      scenario: `First analytics request after seeding: rollup build of a year, ${sales / 1000}k sales`,
      database,
      m: { rps: NaN, p50: build, p99: build, errors: first.status === 200 ? 0 : 1 },
      target: 'report',
      met: null,
    },
  ];
  const cases: Array<[string, string, boolean]> = [
    ['overview', '', true],
    ['summary', '', true],
    ['overview', year, true],
    ['summary', year, true],
    ['trend', year, false],
    ['payment-mix', year, false],
    ['top-products', year, false],
    ['sales', year, false],
    ['customers', year, false],
    ['cashflow', year, false],
    ['dashboard', '', false],
    ['products', year, false],
  ];
  for (const [route, query, targeted] of cases) {
    const times: number[] = [];
    let errors = 0;
    const url = `${base}/api/v1/analytics/${route}${query ? `?${query}` : ''}`;
    for (let i = 0; i < 33; i++) {
      if (i % 10 === 0) token = await login(); // access tokens live 15 minutes
      const started = performance.now();
      const res = await request(url, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
      if (i >= 3) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p99 = Math.round(pct(times, 99));
    rows.push({
      scenario: `GET /analytics/${route} ${query ? '(365 days)' : route === 'dashboard' ? '(today)' : '(default 30 days)'}, ${sales / 1000}k sales`,
      database,
      m: { rps: NaN, p50: Math.round(pct(times, 50)), p99, errors },
      target: targeted ? 'p99 < 200 ms' : 'report',
      met: targeted ? errors === 0 && p99 < 200 : null,
    });
  }
  console.error(`analytics: seeded ${sales} sales on ${database} in ${seeded} s`);
  return rows;
}

async function main() {
  const { values } = parseArgs({ options: { db: { type: 'string', default: 'both' }, sales: { type: 'string', default: '100000' } } });
  const rows: Row[] = [];
  for (const database of values.db === 'both' ? ['sqlite', 'postgres'] : [values.db!]) {
    const server = await startBenchServer(database);
    try {
      rows.push(...(await analyticsBenchmarks(server.base, database, server.dbOpts, Number(values.sales))));
    } finally {
      await server.stop();
    }
  }
  printTable(rows);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

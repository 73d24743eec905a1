/**
 * Till SDK benchmarks (issue 6): a real Till (client-sdk) against the server process on loopback,
 * with its replica in a temp file (WAL, synchronous=FULL as in production). A fresh shop of its own
 * (registered here), so the replica holds exactly the seeded 50,000 products and their stock.
 * Run by `npm run bench`; prints its rows into the same table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newId } from '@duka/shared';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { Till } from '@duka/client-sdk';
import { createDb } from '../server/src/db/create-db.js';
import { browserTillBenchmarks } from './browser-till.js';
import type { Row } from './lib.js';

const PRODUCTS = 50_000;
const LOOKUPS = 2_000;
const SALES = 500;
const CHANGES = 20_000;
const CHANGE_CONCURRENCY = 32;
/** Below the server's ceiling of 1,000,000,000 units a product, so the +5 adjusts below stay allowed. */
const STOCK = 900_000_000;

/** p99 of a one-row commit with WAL + synchronous=FULL: what any durable local sale costs at least. */
function fsyncFloor(dir: string, n: number): Row {
  const db = new Database(path.join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('create table t (id integer primary key, v text)');
  const insert = db.prepare('insert into t (v) values (?)');
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    insert.run('x');
    times.push(performance.now() - t0);
  }
  db.close();
  times.sort((a, b) => a - b);
  return {
    scenario: 'replica floor: one-row durable commit (WAL, synchronous=FULL)',
    database: 'till',
    m: { rps: Number.NaN, p50: ms3(pct(times, 50)), p99: ms3(pct(times, 99)), errors: 0 },
    target: 'floor',
    met: null,
  };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms3 = (n: number) => Math.round(n * 1000) / 1000;
const barcodeOf = (n: number) => `6160000${String(n).padStart(6, '0')}`;

/** 500 local sales of 5 lines, one at a time: the row of their latencies. */
async function localSales(till: Till, productIds: string[], from: number, database: string, when: string): Promise<Row> {
  const sales: number[] = [];
  let failed = 0;
  const started = performance.now();
  for (let i = from; i < from + SALES; i++) {
    const lines = Array.from({ length: 5 }, (_, k) => ({ product_id: productIds[(i * 97 + k * 7919) % PRODUCTS]!, qty: 1 + (k % 2) }));
    const t0 = performance.now();
    const r = await till.sell({ lines, payment_method: 'Cash' }).catch(() => null);
    sales.push(performance.now() - t0);
    if (!r) failed++;
  }
  const secs = (performance.now() - started) / 1000;
  sales.sort((a, b) => a - b);
  return {
    scenario: `SDK local sale, 5 lines (${SALES} sales, queued${when})`,
    database,
    m: { rps: Math.round(SALES / secs), p50: ms3(pct(sales, 50)), p99: ms3(pct(sales, 99)), errors: failed },
    target: 'p99 <= 2 ms',
    met: failed === 0 && pct(sales, 99) <= 2,
  };
}

export async function sdkBenchmarks(
  base: string,
  account: { phone: string; password: string },
  database: string,
  dbOpts: { url?: string; sqliteFile?: string },
  /** The server's till app folder (`WEB_DIST_DIR`): the browser till rows build their page there. */
  tillPageDir?: string,
): Promise<Row[]> {
  const rows: Row[] = [];
  const api = `${base}/api/v1`;
  const reg = await fetch(`${api}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Till',
      last_name: 'Bench',
      ...account,
      confirm_password: account.password,
      shop: { name: 'Till Bench Duka' },
    }),
  });
  if (reg.status >= 300) throw new Error(`sdk bench: register ${reg.status} ${await reg.text()}`);
  const token = ((await reg.json()) as { data: { tokens: { access_token: string } } }).data.tokens.access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  // Seed 50,000 products with barcodes and stock in the owner's store, through a second connection.
  const db = createDb({ ...dbOpts, poolSize: 2 });
  const owner = await db.db
    .selectFrom('users')
    .select(['org_id', 'store_id'])
    .where('phone', 'like', `%${account.phone.slice(1)}`)
    .executeTakeFirstOrThrow();
  const orgId = owner.org_id!;
  const storeId = owner.store_id!;
  const now = Date.now();
  const productIds: string[] = [];
  for (let batch = 0; batch < PRODUCTS / 1000; batch++) {
    const chunk = Array.from({ length: 1000 }, (_, i) => {
      const n = batch * 1000 + i;
      const id = newId();
      productIds.push(id);
      return {
        id,
        org_id: orgId,
        name: `${['Sukari', 'Unga', 'Mchele', 'Sabuni', 'Mafuta', 'Chai', 'Maji', 'Soda'][n % 8]} ${n}`,
        sku: `TILL-${n}`,
        barcode: barcodeOf(n),
        selling_price: 1000 + (n % 50) * 100,
        cost_price: 800,
        created_at: now,
        updated_at: now,
      };
    });
    await db.db.insertInto('products').values(chunk).execute();
    await db.db
      .insertInto('product_stock')
      .values(chunk.map((r) => ({ org_id: orgId, store_id: storeId, product_id: r.id, qty: STOCK, updated_at: now })))
      .execute();
  }
  await sql.raw(dbOpts.url ? 'vacuum analyze' : 'analyze').execute(db.db);
  await db.close();

  // BENCH_BROWSER_ONLY=1: the browser till rows alone (their before and after in a short window).
  if (process.env.BENCH_BROWSER_ONLY !== '1') rows.push(...(await nodeTillBenchmarks(api, headers, account, database, productIds)));
  // The same two in a browser: a till of its own on the same shop, bootstrapped from the same server.
  // `BENCH_SDK_NODE_ONLY=1` leaves them out (measuring the Node till alone, issue 53).
  if (tillPageDir && process.env.BENCH_SDK_NODE_ONLY !== '1')
    rows.push(
      ...(await browserTillBenchmarks({
        base,
        distDir: tillPageDir,
        account,
        productIds,
        barcode: barcodeOf(PRODUCTS - 1),
        sales: SALES,
        products: PRODUCTS,
      })),
    );
  return rows;
}

/** The Node SDK's rows: bootstrap, lookups, sales and their floor, a catch-up pull. */
async function nodeTillBenchmarks(
  api: string,
  headers: Record<string, string>,
  account: { phone: string; password: string },
  database: string,
  productIds: string[],
): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-bench-till-'));
  const till = await Till.open({
    baseUrl: api,
    dbPath: path.join(dir, 'till.db'),
    deviceName: 'Bench Counter',
    autoSync: false,
    requestTimeoutMs: 60_000,
  });
  try {
    // The seeding above never yielded to the event loop (better-sqlite3 is synchronous): let this
    // process read the close of the keep-alive socket the server dropped meanwhile, or the login
    // goes out on it ("other side closed").
    await new Promise((r) => setTimeout(r, 50));
    await till.login(account.phone, account.password);

    // Bootstrap: the whole shop into an empty replica (first sync), wall time.
    let t0 = performance.now();
    const boot = await till.syncNow();
    const bootMs = performance.now() - t0;
    const held = await till.searchProducts('', { limit: 1 });
    const bootOk = boot.bootstrapped === true && held.length === 1;
    rows.push({
      scenario: `SDK bootstrap of ${PRODUCTS / 1000}k products + stock into replica`,
      database,
      m: { rps: Number.NaN, p50: Math.round(bootMs), p99: Math.round(bootMs), errors: bootOk ? 0 : 1 },
      target: '<= 3000 ms',
      met: bootOk && bootMs <= 3000,
    });

    // Barcode lookups on random barcodes, one at a time.
    const lookups: number[] = [];
    let missed = 0;
    const startedLookups = performance.now();
    for (let i = 0; i < LOOKUPS; i++) {
      const code = barcodeOf(Math.floor(Math.random() * PRODUCTS));
      t0 = performance.now();
      const p = await till.productByCode(code);
      lookups.push(performance.now() - t0);
      if (!p) missed++;
    }
    const lookupSecs = (performance.now() - startedLookups) / 1000;
    lookups.sort((a, b) => a - b);
    rows.push({
      scenario: `SDK productByCode, ${LOOKUPS} random barcodes, ${PRODUCTS / 1000}k replica`,
      database,
      m: { rps: Math.round(LOOKUPS / lookupSecs), p50: ms3(pct(lookups, 50)), p99: ms3(pct(lookups, 99)), errors: missed },
      target: 'p99 <= 0.2 ms',
      met: missed === 0 && pct(lookups, 99) <= 0.2,
    });

    // Local sales of 5 lines, network up, no sync running (autoSync off): queued for later. First
    // right after the bootstrap, its WAL not yet folded into the file and growing with every sale.
    rows.push(await localSales(till, productIds, 0, database, ''));
    // Then as a till sells between customers (issue 53): its idle checkpoint has run (2 s after its
    // last write), so the next commit starts the WAL over and writes into the file's existing
    // blocks instead of growing it (a cheaper flush). A PASSIVE checkpoint from a second connection
    // makes sure the idle one has finished; it changes nothing the till holds.
    await new Promise((r) => setTimeout(r, 2_500));
    const side = new Database(path.join(dir, 'till.db'));
    side.pragma('wal_checkpoint(PASSIVE)');
    side.close();
    rows.push(await localSales(till, productIds, SALES, database, ', after its idle checkpoint'));
    // The floor under that figure: one durable commit of one tiny row on the same disk, same pragmas.
    rows.push(fsyncFloor(dir, SALES));

    // Push those sales and pull back their effects, so the catch-up below is a pull only. The 500
    // sales never yielded to the event loop (the replica is synchronous), so the keep-alive socket
    // the server closed meanwhile is still pooled, unread: let this process read its close first,
    // or the push goes out on a dead socket ("other side closed").
    await new Promise((r) => setTimeout(r, 50));
    await till.syncNow();
    const pendingBefore = till.status().pending;

    // 20,000 changes through the server's own code path: one stock adjustment per product (distinct
    // products, so the pull cannot collapse them), POST /inventory/products/{id}/adjust, 32 at a time.
    let adjustFailed = 0;
    let next = 0;
    const adjustStart = performance.now();
    await Promise.all(
      Array.from({ length: CHANGE_CONCURRENCY }, async () => {
        while (next < CHANGES) {
          const id = productIds[next++]!;
          const res = await fetch(`${api}/inventory/products/${id}/adjust`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ qty_change: 5, reason: 'bench' }),
          });
          const body = await res.text();
          if (res.status !== 200 && adjustFailed++ === 0)
            console.error(`[bench] ${database} sdk: first adjust refused: ${res.status} ${body.slice(0, 300)}`);
        }
      }),
    );
    const adjustSecs = (performance.now() - adjustStart) / 1000;
    console.error(
      `[bench] ${database} sdk: ${CHANGES} stock adjusts, ${CHANGE_CONCURRENCY} at a time, in ${adjustSecs.toFixed(1)} s (${Math.round(CHANGES / adjustSecs)}/s)`,
    );

    t0 = performance.now();
    const pulled = await till.syncNow();
    const pullMs = performance.now() - t0;
    const probe = await till.stock(productIds[CHANGES - 1]!);
    const pullOk = adjustFailed === 0 && pendingBefore === 0 && pulled.pulled >= CHANGES && probe !== null && probe >= STOCK + 5 - 10;
    rows.push({
      scenario: `SDK catch-up pull of ${CHANGES / 1000}k changes (HTTP stock adjusts), default 500/page`,
      database,
      m: {
        rps: Math.round(pulled.pulled / (pullMs / 1000)),
        p50: Math.round(pullMs),
        p99: Math.round(pullMs),
        errors: adjustFailed + (pullOk ? 0 : 1),
      },
      target: '<= 2000 ms',
      met: pullOk && pullMs <= 2000,
    });
  } finally {
    await till.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

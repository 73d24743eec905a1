/// <reference types="vite/client" />
/**
 * The page `bench/browser-till.ts` builds with Vite and drives in headless Chromium: the SDK's
 * browser build as the web till opens it (`openBrowserTill`, the replica in SQLite WASM on OPFS
 * inside its worker), timed from the page. Served by the bench server itself (`WEB_DIST_DIR`), so
 * the till reaches the API on its own origin as the web till does.
 */
import SqliteWorker from '@duka/client-sdk/sqlite-worker?worker';
import { Kysely, sql } from 'kysely';
import { openBrowserTill, opfsStorage, type WorkerLike } from '@duka/client-sdk/browser';

/** Time in the worker's round trips, by kind of request (the first words of its SQL), while `timing` is on. */
const spent = new Map<string, { n: number; ms: number }>();
let timing = false;
const kindOf = (m: { op: string; sql?: string; steps?: { sql: string }[] }) =>
  `${m.op} ${(m.sql ?? m.steps?.[0]?.sql ?? '').replace(/\s+/g, ' ').slice(0, 40)}`;

/** The worker, its requests timed from post to answer (the main thread's wait for it). */
const worker = (): WorkerLike => {
  const w = new SqliteWorker() as unknown as WorkerLike;
  const started = new Map<number | string, { kind: string; t0: number }>();
  w.addEventListener('message', (e: { data: { id: number | string } }) => {
    const s = started.get(e.data.id);
    if (!s) return;
    started.delete(e.data.id);
    const k = spent.get(s.kind) ?? { n: 0, ms: 0 };
    k.n++;
    k.ms += performance.now() - s.t0;
    spent.set(s.kind, k);
  });
  const post = w.postMessage.bind(w);
  w.postMessage = (m: unknown, transfer?: ArrayBuffer[]) => {
    const msg = m as { id: number | string; op: string };
    if (timing) started.set(msg.id, { kind: kindOf(msg), t0: performance.now() });
    post(m, transfer ?? []);
  };
  return w;
};
const took = () =>
  [...spent.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 12)
    .map(([k, v]) => `${Math.round(v.ms)} ms in ${v.n} × ${k}`);

/**
 * The bootstrap's page downloads as the page's resource timing has them: their count, time on the
 * wire, first start and last end after `t0`; then the server's part (request sent to first byte,
 * the server building the page on loopback), the body's, and the wait between a page's last byte
 * and the next page's request (the worker busy with the page before: the sign-in reads queue).
 */
const downloads = (t0: number) => {
  const pages = (
    performance.getEntriesByType('resource') as unknown as Array<{
      name: string;
      startTime: number;
      duration: number;
      requestStart: number;
      responseStart: number;
      responseEnd: number;
    }>
  ).filter((e) => e.name.includes('/sync/bootstrap') && e.startTime >= t0);
  const busy = pages.reduce((a, e) => a + e.duration, 0);
  const last = Math.max(...pages.map((e) => e.responseEnd - t0));
  const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0));
  const server = pages.map((e) => e.responseStart - e.requestStart);
  const body = pages.map((e) => e.responseEnd - e.responseStart);
  const waits = pages.slice(1).map((e, i) => e.startTime - pages[i]!.responseEnd);
  return (
    `downloads: ${pages.length} pages, ${Math.round(busy)} ms on the wire, the last done at ${Math.round(last)} ms; ` +
    `to first byte ${sum(server)} ms (${server.map(Math.round).join(' ')}), bodies ${sum(body)} ms, ` +
    `waits before the next request ${sum(waits)} ms (${waits.map(Math.round).join(' ')})`
  );
};

interface Run {
  /** The API root, on the origin that served this page. */
  api: string;
  phone: string;
  password: string;
  /** Product ids to sell from; a sale of 5 lines takes 5 of them. */
  productIds: string[];
  sales: number;
  floorCommits: number;
}

/** The bench's one till, as the run and the cold start after a reload open it. */
const openTill = (o: Run) =>
  openBrowserTill({
    worker,
    name: 'bench-till.db',
    baseUrl: o.api,
    deviceName: 'Browser bench',
    autoSync: false,
    requestTimeoutMs: 60_000,
  });

async function run(o: Run) {
  const till = await openTill(o);
  try {
    await till.login(o.phone, o.password);
    timing = true;
    let t0 = performance.now();
    const boot = await till.syncNow();
    const bootMs = performance.now() - t0;
    timing = false;
    const bootSpent = [...took(), downloads(t0)];
    spent.clear();
    const held = (await till.searchProducts('', { limit: 1 })).length === 1 && boot.bootstrapped;

    const sales: number[] = [];
    let failed = 0;
    timing = true;
    const n = o.productIds.length;
    for (let i = 0; i < o.sales; i++) {
      const lines = Array.from({ length: 5 }, (_, k) => ({ product_id: o.productIds[(i * 97 + k * 7919) % n]!, qty: 1 + (k % 2) }));
      t0 = performance.now();
      const r = await till.sell({ lines, payment_method: 'Cash' }).catch(() => null);
      sales.push(performance.now() - t0);
      if (!r) failed++;
    }
    timing = false;
    return { bootMs, bootOk: held, sales, failed, spent: { boot: bootSpent, sales: took() } };
  } finally {
    await till.close();
  }
}

/** One-row commits on a database of its own, same worker and VFS: what any durable local sale costs at least. */
async function floor(n: number): Promise<number[]> {
  const storage = await opfsStorage({ worker, name: 'bench-floor.db' });
  const db = new Kysely<any>({ dialect: storage.dialect });
  await sql`create table if not exists t (id integer primary key, v text)`.execute(db);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await sql`insert into t (v) values ('x')`.execute(db);
    times.push(performance.now() - t0);
  }
  await db.destroy();
  return times;
}

/**
 * The same one-row commit under each journal mode opfs-sahpool can keep (WAL only with exclusive
 * locking: the VFS has no shared memory), in turn on the floor's database (the pool has few file
 * slots): `mode p50/p99` for the log.
 */
async function floorByMode(n: number): Promise<string[]> {
  const said: string[] = [];
  const storage = await opfsStorage({ worker, name: 'bench-floor.db' });
  const db = new Kysely<any>({ dialect: storage.dialect });
  try {
    for (const mode of ['delete', 'truncate', 'persist', 'wal']) {
      if (mode === 'wal') await sql.raw('pragma locking_mode = exclusive').execute(db);
      const got = await sql.raw(`pragma journal_mode = ${mode}`).execute(db);
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await sql`insert into t (v) values ('x')`.execute(db);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const at = (p: number) => times[Math.floor((p / 100) * (times.length - 1))]!.toFixed(2);
      said.push(`${mode} (${Object.values(got.rows[0] ?? {})}) ${at(50)}/${at(99)} ms`);
    }
  } catch (e) {
    said.push(`failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await db.destroy();
  }
  return said;
}

async function call(o: Run) {
  try {
    const till = await run(o);
    // After the till has let go of the origin's one pool of OPFS files.
    return { ok: { ...till, floor: await floor(o.floorCommits), modes: await floorByMode(200) } };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

/**
 * After a reload of this page, its till already bootstrapped and signed in: the time from the
 * navigation's start (`performance.now()`'s zero) to a till ready to scan, i.e. open, its cashier
 * known, and a barcode lookup answered from the replica.
 */
async function cold(o: Run & { barcode: string }) {
  try {
    const till = await openTill(o);
    try {
      const user = await till.user();
      const found = await till.productByCode(o.barcode);
      const readyMs = performance.now();
      return { ok: { readyMs, ready: user !== null && found !== null } };
    } finally {
      await till.close();
    }
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

(globalThis as unknown as { bench: { call: typeof call; cold: typeof cold } }).bench = { call, cold };

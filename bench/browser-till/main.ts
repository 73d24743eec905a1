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

const worker = () => new SqliteWorker() as unknown as WorkerLike;

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

async function run(o: Run) {
  const till = await openBrowserTill({
    worker,
    name: 'bench-till.db',
    baseUrl: o.api,
    deviceName: 'Browser bench',
    autoSync: false,
    requestTimeoutMs: 60_000,
  });
  try {
    await till.login(o.phone, o.password);
    let t0 = performance.now();
    const boot = await till.syncNow();
    const bootMs = performance.now() - t0;
    const held = (await till.searchProducts('', { limit: 1 })).length === 1 && boot.bootstrapped;

    const sales: number[] = [];
    let failed = 0;
    const n = o.productIds.length;
    for (let i = 0; i < o.sales; i++) {
      const lines = Array.from({ length: 5 }, (_, k) => ({ product_id: o.productIds[(i * 97 + k * 7919) % n]!, qty: 1 + (k % 2) }));
      t0 = performance.now();
      const r = await till.sell({ lines, payment_method: 'Cash' }).catch(() => null);
      sales.push(performance.now() - t0);
      if (!r) failed++;
    }
    return { bootMs, bootOk: held, sales, failed };
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

async function call(o: Run) {
  try {
    const till = await run(o);
    // After the till has let go of the origin's one pool of OPFS files.
    return { ok: { ...till, floor: await floor(o.floorCommits) } };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

(globalThis as unknown as { bench: { call: typeof call } }).bench = { call };

/**
 * The load of the push rows: tills registered through the public API, each with its queue of
 * offline sales of 3 lines, pushed in batches by all tills at once; every result must be `applied`.
 */
import { newId } from '@duka/shared';
import type { DbHandle } from '../server/src/db/handle.js';
import { cpuMs, type Measured, median, statementsPer } from './lib.js';

export interface BenchProduct {
  id: string;
  /** Cents. */
  selling_price: number;
}

export interface Till {
  id: string;
  /** The bearer token of the till's store (push scope comes from the token only). */
  headers: Record<string, string>;
  mutations: unknown[];
}

/**
 * 300 products written straight to the database (an hour old), each with its price history and a
 * stock no bench can sell out in every store of `storeIds`: a catalogue for the push rows.
 */
export async function seedProducts(db: DbHandle, orgId: string, storeIds: string[], skuPrefix: string): Promise<BenchProduct[]> {
  const now = Date.now() - 3_600_000;
  const products = Array.from({ length: 300 }, (_, i) => ({
    id: newId(),
    org_id: orgId,
    name: `Bidhaa ${i}`,
    sku: `${skuPrefix}-${i}`,
    selling_price: 50_000 + i * 100,
    cost_price: 40_000,
    created_at: now,
    updated_at: now,
  }));
  await db.db.insertInto('products').values(products).execute();
  await db.db
    .insertInto('product_stock')
    .values(
      storeIds.flatMap((store_id) =>
        products.map((p) => ({ org_id: orgId, store_id, product_id: p.id, qty: 1_000_000_000, updated_at: now })),
      ),
    )
    .execute();
  await db.db
    .insertInto('product_prices')
    .values(
      products.map((p) => ({
        id: newId(),
        org_id: orgId,
        product_id: p.id,
        selling_price: p.selling_price,
        wholesale_price: null,
        cost_price: p.cost_price,
        tax_rate: 1800,
        effective_from: now,
        changed_by: null,
      })),
    )
    .execute();
  return products;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Register a till in the store of `headers`' token. */
export async function registerTill(base: string, headers: Record<string, string>, name: string): Promise<string> {
  const id = newId();
  const res = await fetch(`${base}/api/v1/sync/devices`, { method: 'POST', headers, body: JSON.stringify({ device_id: id, name }) });
  if (!res.ok) throw new Error(`POST /sync/devices → ${res.status}: ${await res.text()}`);
  return id;
}

/**
 * `count` offline sales of 3 lines from till number `d` (receipts `<prefix><d>-<i>`), seq from
 * `firstSeq`, made an hour ago; products picked so that tills spread over the catalogue.
 */
export function offlineSales(products: BenchProduct[], d: number, count: number, prefix: string, firstSeq = 1) {
  const start = Date.now() - 3_600_000;
  return Array.from({ length: count }, (_, k) => {
    const i = firstSeq - 1 + k;
    const lines = [0, 1, 2].map((l) => {
      const p = products[(d * 37 + i * 3 + l) % products.length]!;
      return { product_id: p.id, qty: 1 + (l % 2), unit_price: p.selling_price / 100 };
    });
    const payload = { id: newId(), client_receipt_number: `${prefix}${d + 1}-${i + 1}`, lines, payment_method: 'Cash' };
    return { id: newId(), seq: i + 1, type: 'sale.create', created_at: new Date(start + 60_000 + i * 1000).toISOString(), payload };
  });
}

/**
 * Wait out the server's keep-alive timeout (Node's 5 s) before a phase, so that no request goes out
 * on an idle socket the server is closing at that moment (the bench's own synchronous work, such as
 * the SQLite ceiling, can keep it from noticing): that race answered ECONNRESET mid-run.
 */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 5_500));

/**
 * One push, on a connection of its own: under today's SQLite push the server's event loop stalls
 * for seconds, and a kept-alive socket whose next request arrived during the stall is closed by the
 * 5 s keep-alive timeout before the request is read (ECONNRESET). A loopback connect costs well
 * under a millisecond.
 */
export function push(base: string, till: Pick<Till, 'id' | 'headers'>, mutations: unknown[]) {
  return fetch(`${base}/api/v1/sync/push`, {
    method: 'POST',
    headers: { ...till.headers, connection: 'close' },
    body: JSON.stringify({ device_id: till.id, mutations }),
  });
}

/** Every till pushes its sales in batches of `batch`, all tills at once: sales/s and the push latencies. */
export async function timePushes(base: string, tills: Till[], batch: number, serverPid?: number): Promise<Measured> {
  await settle();
  const cpuBefore = serverPid ? cpuMs(serverPid) : 0;
  const latencies: number[] = [];
  const dbMs: number[] = [];
  const waitMs: number[] = [];
  let failed = 0;
  let total = 0;
  const started = performance.now();
  await Promise.all(
    tills.map(async (till) => {
      for (let i = 0; i < till.mutations.length; i += batch) {
        const t0 = performance.now();
        const res = await push(base, till, till.mutations.slice(i, i + batch));
        const body = (await res.json()) as { data?: { results: Array<{ status: string }> } };
        latencies.push(performance.now() - t0);
        dbMs.push(Number(res.headers.get('x-db-ms') ?? NaN));
        waitMs.push(Number(res.headers.get('x-db-wait-ms') ?? NaN));
        if (res.status !== 200 || body.data!.results.some((r) => r.status !== 'applied')) failed++;
      }
      total += till.mutations.length;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: Math.round(total / seconds),
    p50: Math.round(pct(latencies, 50)),
    p99: Math.round(pct(latencies, 99)),
    errors: failed,
    db: {
      cpuMs: serverPid ? Math.round((cpuMs(serverPid) - cpuBefore) / latencies.length) : undefined,
      ms: Math.round(median(dbMs)),
      waitMs: Math.round(median(waitMs)),
    },
  };
}

/** Statements per push of `batch` new sales: a till of its own pushes `sales` (3 batches), one push at a time, each checked applied. */
export async function pushStatements(base: string, headers: Record<string, string>, sales: unknown[], batch: number): Promise<number> {
  await settle();
  const till = { id: await registerTill(base, headers, 'Statement probe'), headers };
  return statementsPer(3, async (i) => {
    const res = await push(base, till, sales.slice(i * batch, (i + 1) * batch));
    const body = (await res.clone().json()) as { data?: { results: Array<{ status: string }> } };
    if (body.data?.results.some((r) => r.status !== 'applied')) throw new Error('a probe push was not applied');
    return res;
  });
}

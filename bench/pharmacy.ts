/**
 * Batch-tracked variants of the sale and push benchmarks (issue 14): a pharmacy of its own whose
 * 300 medicines each hold 3 lots (received by delivered deliveries), sold online (FEFO on the
 * server) and pushed from tills that send their own lots, each line of 2 units spanning two lots.
 * Each row is printed beside the plain one (issue 39's targets): the sale, whose lines each take one
 * lot, within 25 % of the plain POST /pos/sale's sales/s; the push, whose lines each span two lots,
 * within 25 % of the plain push's rows written per second (20 tills in one store: the pharmacy's
 * tills are all in its one store, so both pushes queue on one store's lock). A sale's rows are those
 * of the sale's own tables: the sale, its lines and its lots (the ledger's dispensing lines).
 */
import { newId } from '@duka/shared';
import { sql } from 'kysely';
import { createDb } from '../server/src/db/create-db.js';
import { measure, type Row, statementsPer } from './lib.js';
import { pushStatements, registerTill, timePushes } from './push-load.js';

export interface BenchPharmacy {
  orgId: string;
  dbOpts: { url?: string; sqliteFile?: string };
  headers: Record<string, string>;
  medicines: Array<{ id: string; price: number; lots: string[] }>;
}

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function call(base: string, path: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const res = await fetch(`${base}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: any };
  if (!res.ok) throw new Error(`POST ${path} → ${res.status}: ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * The benchmark pharmacy: 300 OTC medicines (as many as the plain push's products, so both push the
 * same spread of rows), each received in 3 lots of a million (lot A expires first).
 */
export async function openBenchPharmacy(
  base: string,
  phone: string,
  dbOpts: { url?: string; sqliteFile?: string },
): Promise<BenchPharmacy> {
  const password = 'benchmark3';
  const reg = await call(base, '/auth/register', {
    first_name: 'Bench',
    last_name: 'Famasia',
    phone,
    password,
    confirm_password: password,
    shop: { name: 'Bench Famasia', business_type: 'pharmacy' },
  });
  const headers = { authorization: `Bearer ${reg.tokens.access_token}`, 'content-type': 'application/json' };
  const medicines: BenchPharmacy['medicines'] = [];
  for (let i = 0; i < 300; i++) {
    const price = 500 + i * 100;
    const p = await call(
      base,
      '/inventory/products',
      {
        name: `Dawa ${i}`,
        generic_name: `Generic ${i}`,
        strength: '500 mg',
        dosage_form: 'tablet',
        schedule: 'otc',
        selling_price: price,
        cost_price: 300,
      },
      headers,
    );
    medicines.push({ id: p.id, price, lots: [] });
  }
  const supplier = await call(base, '/suppliers', { name: 'Bench Medisel' }, headers);
  const lines = medicines.flatMap((m, i) =>
    ['A', 'B', 'C'].map((lot, k) => ({
      product_id: m.id,
      qty: 1_000_000,
      unit_cost: 300,
      lot_number: `B${i}-${lot}`,
      expiry_date: day(200 * (k + 1)),
    })),
  );
  // A delivery holds at most 500 lines.
  for (let i = 0; i < lines.length; i += 450)
    await call(base, `/suppliers/${supplier.id}/deliveries`, { status: 'delivered', lines: lines.slice(i, i + 450) }, headers);
  const db = createDb({ ...dbOpts, poolSize: 2 });
  const batches = await db.db
    .selectFrom('batches')
    .select(['id', 'product_id'])
    .where('org_id', '=', reg.org_id)
    .orderBy('lot_number')
    .execute();
  await db.close();
  for (const m of medicines) m.lots = batches.filter((b) => b.product_id === m.id).map((b) => b.id);
  return { orgId: reg.org_id, dbOpts, headers, medicines };
}

/** A plain push's sale writes its row and its 3 lines. */
const PLAIN_ROWS_PER_SALE = 4;

/** The organisation's rows in the sale's tables (sales, lines, dispensing lines; sale lots where a schema still has them). */
async function saleRows(shop: BenchPharmacy): Promise<{ sales: number; rows: number }> {
  const handle = createDb({ ...shop.dbOpts, poolSize: 1 });
  const { db } = handle;
  try {
    const count = async (table: string, extra = sql``) =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where org_id = ${shop.orgId} ${extra}`.execute(db)).rows[0]!
          .n,
      );
    const tables = (await db.introspection.getTables()).map((t) => t.name);
    const sales = await count('transactions');
    const rows =
      sales +
      (await count('transaction_lines')) +
      (await count('batch_movements', sql`and kind = 'dispensed'`)) +
      (tables.includes('transaction_line_batches') ? await count('transaction_line_batches') : 0);
    return { sales, rows };
  } finally {
    // The handle, not only Kysely: SQLite's read threads and checkpoint worker would keep the bench alive.
    await handle.close();
  }
}

/** A variant of a plain row is held to 25 % of its throughput. */
export const within25 = (plain: Row) => ({
  target: `within 25 % of plain (>= ${Math.round(plain.m.rps * 0.75)}/s)`,
  enough: (rps: number) => rps >= plain.m.rps * 0.75,
});

/** POST /pos/sale of 3 batch-tracked lines, beside `plain` (the same sale of untracked products). */
export async function batchSaleBenchmark(base: string, database: string, seconds: number, shop: BenchPharmacy, plain: Row): Promise<Row> {
  const body = JSON.stringify({ lines: [0, 1, 2].map((i) => ({ product_id: shop.medicines[i * 7]!.id, qty: 1 })), payment_method: 'Cash' });
  const url = `${base}/api/v1/pos/sale`;
  const m = await measure({ url, method: 'POST', headers: shop.headers, body, connections: 32, seconds });
  const statements = await statementsPer(5, () => fetch(url, { method: 'POST', headers: shop.headers, body }));
  const { target, enough } = within25(plain);
  return {
    scenario: 'POST /pos/sale, 3 batch-tracked lines (FEFO over 3 lots each), 32 conn',
    database,
    m,
    target,
    met: m.errors === 0 && enough(m.rps),
    statements,
  };
}

/** `count` sales of medicines from till number `d`, each line of 2 units sent on two of its lots. */
function medicineSales(shop: BenchPharmacy, d: number, count: number, prefix: string) {
  const now = Date.now() - 3_600_000;
  return Array.from({ length: count }, (_, i) => {
    const lines = [0, 1, 2].map((k) => {
      const m = shop.medicines[(d * 37 + i * 3 + k) % shop.medicines.length]!;
      const first = (i + k) % 2;
      return {
        product_id: m.id,
        qty: 2,
        unit_price: m.price,
        batches: [
          { batch_id: m.lots[first]!, qty: 1 },
          { batch_id: m.lots[first + 1]!, qty: 1 },
        ],
      };
    });
    const payload = { id: newId(), client_receipt_number: `${prefix}${d + 1}-${i + 1}`, lines, payment_method: 'Cash' };
    return { id: newId(), seq: i + 1, type: 'sale.create', created_at: new Date(now + 60_000 + i * 1000).toISOString(), payload };
  });
}

/** The push benchmark's 10,000 sales, of medicines; beside `plain` (20 tills in one store). */
export async function batchPushBenchmark(
  base: string,
  database: string,
  shop: BenchPharmacy,
  plain: Row,
  serverPid?: number,
): Promise<Row> {
  const DEVICES = 20;
  const SALES_PER_DEVICE = 500;
  const BATCH = 100;
  const devices = await Promise.all(
    Array.from({ length: DEVICES }, async (_, d) => ({
      id: await registerTill(base, shop.headers, `Famasia ${d + 1}`),
      headers: shop.headers,
      mutations: medicineSales(shop, d, SALES_PER_DEVICE, 'F'),
    })),
  );
  const before = await saleRows(shop);
  const m = await timePushes(base, devices, BATCH, serverPid);
  const after = await saleRows(shop);
  const perSale = (after.rows - before.rows) / (after.sales - before.sales);
  const statements = await pushStatements(base, shop.headers, medicineSales(shop, 999, 3 * BATCH, 'G'), BATCH);
  const plainRows = plain.m.rps * PLAIN_ROWS_PER_SALE;
  const rows = m.rps * perSale;
  return {
    scenario: `push ${DEVICES * SALES_PER_DEVICE} offline sales, 3 batch-tracked lines each spanning 2 lots (the till's), ${DEVICES} tills x batches of ${BATCH} (${perSale} rows a sale, ${Math.round(rows)} rows/s; plain ${PLAIN_ROWS_PER_SALE}, ${plainRows} rows/s)`,
    database,
    m,
    target: `within 25 % of plain's rows/s (>= ${Math.round(plainRows * 0.75)} rows/s)`,
    met: m.errors === 0 && rows >= plainRows * 0.75,
    statements,
  };
}

/**
 * Issue 51's sale and push rows (`--only units`): weighed lines and split-tender sales, each beside
 * the whole-unit row of the same shape measured just before it, held to within 10 % of its sales/s.
 * A shop of its own: 300 products sold by the piece and 300 by the kilo, seeded straight into the
 * database as the push rows' catalogue is. The sale: 3 lines, 32 connections (whole: 1 of each;
 * weighed: 0.5, 1.25 and 0.75 kg; split: the whole sale paid 1,000 by M-Pesa and the rest in cash).
 * The push: 20 tills of one store, 500 sales of 3 lines each in batches of 100 (whole: 1 and 2 of a
 * piece; weighed: the same quantities as kilos with decimals; split: whole lines, cash + M-Pesa).
 * Whole, weighed and split run in turn, `rounds` times, so the machine's other load falls on each alike.
 */
import { newId } from '@duka/shared';
import { sql } from 'kysely';
import { createDb } from '../server/src/db/create-db.js';
import { measure, type Row, registerOwner, statementsPer, tokenUser } from './lib.js';
import { type BenchProduct, offlineSales, pushStatements, registerTill, seedProducts, timePushes } from './push-load.js';

const TILLS = 20;
const SALES_PER_TILL = 500;
const BATCH = 100;
/** Weighed lines' kilos: decimals a shop's scale gives. */
const KILOS = [0.5, 1.25, 0.75];
/** The M-Pesa part of a split sale, TZS; cash pays the rest. */
const MPESA = 1000;

const KINDS = ['whole', 'weighed', 'split'] as const;
type Kind = (typeof KINDS)[number];

const within10 = (whole: Row, m: Row['m']) => within10Push(whole.m, m);
const within10Push = (whole: Row['m'], m: Row['m']) => ({
  target: `within 10 % of whole-unit (>= ${Math.round(whole.rps * 0.9)}/s)`,
  met: m.errors === 0 && m.rps >= whole.rps * 0.9,
});

/** A line's amount as the server rounds a measured one (half up to the shilling); whole lines are exact. */
const amount = (price: number, qty: number) => Math.round(price * qty);

export async function unitsBenchmarks(
  base: string,
  database: string,
  seconds: number,
  dbOpts: { url?: string; sqliteFile?: string },
  serverPid?: number,
  rounds = 2,
): Promise<Row[]> {
  const { headers, pieces, kilos } = await seedUnitsShop(base, dbOpts);

  const saleUrl = `${base}/api/v1/pos/sale`;
  const pick = (list: BenchProduct[]) => [0, 1, 2].map((i) => list[i * 97]!);
  const wholeLines = pick(pieces).map((p) => ({ product_id: p.id, qty: 1 }));
  const wholeTotal = pick(pieces).reduce((n, p) => n + p.selling_price / 100, 0);
  const bodies: Record<Kind, string> = {
    whole: JSON.stringify({ lines: wholeLines, payment_method: 'Cash' }),
    weighed: JSON.stringify({ lines: pick(kilos).map((p, i) => ({ product_id: p.id, qty: KILOS[i] })), payment_method: 'Cash' }),
    split: JSON.stringify({
      lines: wholeLines,
      payments: [
        { method: 'Cash', amount: wholeTotal - MPESA },
        { method: 'M-Pesa', amount: MPESA, reference: 'QKBENCH51', phone: '0754000555' },
      ],
    }),
  };
  const probe = await fetch(saleUrl, { method: 'POST', headers, body: bodies.split });
  const probed = (await probe.json()) as { data?: { total: number } };
  if (probe.status !== 201 || probed.data?.total !== wholeTotal)
    throw new Error(`the split sale's probe answered ${probe.status}: ${JSON.stringify(probed)} (expected total ${wholeTotal})`);

  let tillNo = 0;
  const tills = async (kind: Kind) =>
    Promise.all(
      Array.from({ length: TILLS }, async (_, d) => ({
        id: await registerTill(base, headers, `Till ${++tillNo}`),
        headers,
        mutations: pushSales(kind, kind === 'weighed' ? kilos : pieces, d, `${kind[0]!.toUpperCase()}${tillNo}-`),
      })),
    );

  const rows: Row[] = [];
  for (let round = 1; round <= rounds; round++) {
    let whole: Row | undefined;
    for (const kind of ['whole', 'weighed', 'split'] as const) {
      const body = bodies[kind];
      const m = await measure({ url: saleUrl, method: 'POST', headers, body, connections: 32, seconds });
      const row: Row = {
        scenario: `POST /pos/sale, 3 lines, 32 conn: ${kind === 'whole' ? 'whole units' : kind === 'weighed' ? 'weighed (kg, 3 decimals)' : 'split tender (cash + M-Pesa)'} (round ${round})`,
        database,
        m,
        ...(whole ? within10(whole, m) : { target: 'the whole-unit row', met: m.errors === 0 }),
        statements: await statementsPer(5, () => fetch(saleUrl, { method: 'POST', headers, body })),
      };
      whole ??= row;
      rows.push(row);
    }
    // The push rows alternate their order by round: a later row pushes into a bigger database, and
    // the same order every round would charge that growth to the split row alone.
    const order = round % 2 ? KINDS : [...KINDS].reverse();
    const pushed = new Map<Kind, { m: Row['m']; statements: number }>();
    for (const kind of order) {
      const m = await timePushes(base, await tills(kind), BATCH, serverPid);
      const probe = pushSales(kind, kind === 'weighed' ? kilos : pieces, 999, `S${kind[0]!.toUpperCase()}${round}-`);
      pushed.set(kind, { m, statements: await pushStatements(base, headers, probe, BATCH) });
    }
    const wholePush = pushed.get('whole')!.m;
    for (const kind of KINDS) {
      const { m, statements } = pushed.get(kind)!;
      rows.push({
        scenario: `push ${TILLS * SALES_PER_TILL} offline sales (3 lines), ${TILLS} tills in one store, batches of ${BATCH}: ${kind === 'whole' ? 'whole units' : kind === 'weighed' ? 'weighed' : 'split tender'} (round ${round}, ${order.join(' → ')})`,
        database,
        m,
        ...(kind === 'whole' ? { target: 'the whole-unit row', met: m.errors === 0 } : within10Push(wholePush, m)),
        statements,
      });
    }
  }
  return rows;
}

/** The units rows' shop: an owner, 300 products by the piece and 300 by the kilo (a billion counts of stock each, as seeded). */
export async function seedUnitsShop(base: string, dbOpts: { url?: string; sqliteFile?: string }) {
  const token = await registerOwner(base, '0754000565', 'Bench Mizani');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const db = createDb({ ...dbOpts, poolSize: 2 });
  const { org_id: orgId, store_id: storeId } = await db.db
    .selectFrom('users')
    .select(['org_id', 'store_id'])
    .where('id', '=', tokenUser(token))
    .executeTakeFirstOrThrow();
  const pieces = await seedProducts(db, orgId!, [storeId!], 'PC');
  const kilos = await seedProducts(db, orgId!, [storeId!], 'KG');
  await db.db
    .updateTable('products')
    .set({ unit: 'kg' })
    .where('org_id', '=', orgId!)
    .where(
      'id',
      'in',
      kilos.map((p) => p.id),
    )
    .execute();
  await sql.raw(dbOpts.url ? 'vacuum analyze products, product_stock' : 'analyze').execute(db.db);
  await db.close();
  return { headers, pieces, kilos };
}

/** The push rows' offline sales (offlineSales' shape): weighed ones sell kilos with decimals, split ones pay two ways. */
export function pushSales(kind: Kind, products: BenchProduct[], d: number, prefix: string) {
  const sales = offlineSales(products, d, SALES_PER_TILL, prefix) as Array<{
    payload: { lines: Array<{ qty: number; unit_price: number }>; payment_method?: string; payments?: unknown };
  }>;
  for (const { payload } of sales) {
    if (kind === 'weighed') for (const [i, l] of payload.lines.entries()) l.qty = KILOS[i]! * l.qty;
    if (kind === 'split') {
      const total = payload.lines.reduce((n, l) => n + amount(l.unit_price, l.qty), 0);
      delete payload.payment_method;
      payload.payments = [
        { method: 'Cash', amount: total - MPESA },
        { method: 'M-Pesa', amount: MPESA, reference: `QK${newId().slice(-8)}` },
      ];
    }
  }
  return sales;
}

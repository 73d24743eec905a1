/**
 * Aggregate reads of the sales ledger for the analytics the daily rollups cannot answer (customers,
 * cashflow, the dashboard's days up to a time of day). Each is one grouped query over an index on
 * (org_id | store_id, created_at); nothing is loaded row by row. Day buckets are integer
 * arithmetic on epoch milliseconds from the range's first local midnight (see `DayBuckets`).
 */
import { SoldStatus } from '@duka/shared';
import { type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { keptCounts, lineCost, lineItems, productUnit, refundedOfLine } from '../stock-levels/stock-levels.exports.js';

/** What an analytics query covers: one organisation, optionally one store, the instants [from, to). */
export interface Scope {
  orgId: string;
  storeId: string | null;
  from: number;
  to: number;
}

/**
 * How instants map to local days. `uniform`: every day of the range is 24 h long (no daylight
 * saving change, always so for Africa/Dar_es_Salaam), so the day is `(created_at - from) / 86400000`
 * in SQL. Otherwise SQL buckets by quarter hour and `dayOf` maps a bucket to its day.
 */
export interface DayBuckets {
  from: number;
  bounds: number[];
  uniform: boolean;
}

const DAY_MS = 86_400_000;
const QUARTER_MS = 900_000;

/** The bucket number of `column` (epoch ms) as an integer expression; literals keep both databases in integer arithmetic. */
export function bucketOf(column: string, b: DayBuckets): RawBuilder<number> {
  if (!Number.isSafeInteger(b.from)) throw new Error('range start must be an integer');
  return sql<number>`(${sql.ref(column)} - ${sql.lit(b.from)}) / ${sql.lit(b.uniform ? DAY_MS : QUARTER_MS)}`;
}

/** Index of the local day a bucket from `bucketOf` falls in. */
export function dayOf(bucket: number, b: DayBuckets): number {
  if (b.uniform) return Number(bucket);
  const at = b.from + Number(bucket) * QUARTER_MS;
  let lo = 0;
  let hi = b.bounds.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (b.bounds[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

type TxEb = ExpressionBuilder<Database & { t: Database['transactions'] }, 't'>;

/** Sales of the scope (any status) made in its range. */
function inScope(eb: TxEb, s: Scope, column: 't.created_at' | 't.refunded_at' = 't.created_at') {
  return eb.and([
    eb('t.org_id', '=', s.orgId),
    ...(s.storeId ? [eb('t.store_id', '=', s.storeId)] : []),
    eb(column, '>=', s.from),
    eb(column, '<', s.to),
  ]);
}

const num = (v: unknown) => Number(v ?? 0);

/**
 * Count and money of the scope's sales by status and payment method, with what refunds of part gave
 * back of them (issue 51): how many had some (`partRefunded`), the cents and the VAT in them.
 */
export async function totalsByStatusAndMethod(db: Kysely<Database>, s: Scope) {
  const rows = await db
    .selectFrom('transactions as t')
    .where((eb) => inScope(eb, s))
    .select(['t.status', 't.payment_method'])
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('t.total').as('total'),
      eb.fn.sum<number>('t.tax').as('tax'),
      eb.fn.sum<number>('t.discount').as('discount'),
      eb.fn.sum<number>(eb.case().when('t.part_refunds', '>', 0).then(1).else(0).end()).as('part_refunded'),
      eb.fn.sum<number>('t.refunded_total').as('refunded_total'),
      eb.fn.sum<number>('t.refunded_tax').as('refunded_tax'),
    ])
    .groupBy(['t.status', 't.payment_method'])
    .execute();
  return rows.map((r) => ({
    status: r.status,
    method: r.payment_method,
    n: num(r.n),
    total: num(r.total),
    tax: num(r.tax),
    discount: num(r.discount),
    partRefunded: num(r.part_refunded),
    refundedTotal: num(r.refunded_total),
    refundedTax: num(r.refunded_tax),
  }));
}

/** What the lines still are once refunds of part took some back (issue 51, stock-levels' kept-lines.ts). */
export interface LineFigures {
  /** Items sold: pieces, and one per measured line (stock-levels' `lineItems`). */
  items: number;
  /** Σ line_total − discount (VAT included). */
  revenue: number;
  tax: number;
  cost: number;
}

const lineSums = (eb: ExpressionBuilder<any, any>) => {
  const unit = productUnit('l.org_id', 'l.product_id');
  return [
    eb.fn.sum<number>(lineItems(keptCounts(), unit)).as('items'),
    eb.fn.sum<number>(sql`${sql.ref('l.line_total')} - ${sql.ref('l.discount')} - ${refundedOfLine('amount')}`).as('revenue'),
    eb.fn.sum<number>(sql`${sql.ref('l.tax')} - ${refundedOfLine('tax')}`).as('tax'),
    eb.fn.sum<number>(lineCost(keptCounts(), 'l.cost_price', unit)).as('cost'),
  ];
};
const figures = (r: { items: unknown; revenue: unknown; tax: unknown; cost: unknown }): LineFigures => ({
  items: num(r.items),
  revenue: num(r.revenue),
  tax: num(r.tax),
  cost: num(r.cost),
});

/**
 * Lines of the scope's counted sales. Written as a cross join with the join condition in WHERE:
 * SQLite then always walks the sales range first and reaches each sale's lines through the
 * covering (transaction_id, …) index, instead of scanning lines by product; Postgres plans it as
 * the inner join it is.
 */
function soldLines(db: Kysely<Database>, s: Scope) {
  return db
    .selectFrom('transactions as t')
    .crossJoin('transaction_lines as l')
    .whereRef('l.transaction_id', '=', 't.id')
    .whereRef('l.org_id', '=', 't.org_id')
    .where((eb) => inScope(eb, s))
    .where('t.status', 'in', SoldStatus.options);
}

/** Line figures of the scope's counted sales. */
export async function lineTotals(db: Kysely<Database>, s: Scope): Promise<LineFigures> {
  const r = await soldLines(db, s).select(lineSums).executeTakeFirstOrThrow();
  return figures(r);
}

type Key = 'store' | 'cashier' | { buckets: DayBuckets };
const keyOf = (key: Key): RawBuilder<string | number | null> =>
  key === 'store'
    ? sql`${sql.ref('t.store_id')}`
    : key === 'cashier'
      ? sql`${sql.ref('t.cashier_id')}`
      : bucketOf('t.created_at', key.buckets);

/** Count and revenue (less what refunds of part gave back) of counted sales by store, cashier or local day bucket. */
export async function salesBy(db: Kysely<Database>, s: Scope, key: Key) {
  const keyExpr = keyOf(key);
  const rows = await db
    .selectFrom('transactions as t')
    .where((eb) => inScope(eb, s))
    .where('t.status', 'in', SoldStatus.options)
    .select((eb) => [
      keyExpr.as('k'),
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>(eb('t.total', '-', eb.ref('t.refunded_total'))).as('total'),
    ])
    .groupBy(keyExpr)
    .execute();
  return rows.map((r) => ({ key: r.k as string | number | null, n: num(r.n), total: num(r.total) }));
}

/** Stores of the organisation (for names), or the one store in scope. */
export function storesOf(db: Kysely<Database>, s: Scope) {
  let q = db.selectFrom('stores').select(['id', 'name']).where('org_id', '=', s.orgId);
  if (s.storeId) q = q.where('id', '=', s.storeId);
  return q.orderBy('name').execute();
}

export function findOrgStore(db: Kysely<Database>, orgId: string, storeId: string) {
  return db.selectFrom('stores').select('id').where('org_id', '=', orgId).where('id', '=', storeId).executeTakeFirst();
}

export function usersNamed(db: Kysely<Database>, orgId: string, ids: string[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('org_id', '=', orgId).where('id', 'in', ids).execute();
}

export function productsNamed(db: Kysely<Database>, orgId: string, ids: string[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('products').select(['id', 'name', 'unit']).where('org_id', '=', orgId).where('id', 'in', ids).execute();
}

/**
 * The counted (paid, credit) sales paid several ways (issue 51, `payment_method` `Mixed`), summed per
 * part's method, less what refunds of part gave back per method (`refund_parts`): what a
 * payment-method breakdown adds to each method in place of `Mixed`. Such sales are few, so this
 * reads the ledger even where the rest comes from the rollups.
 */
export async function mixedSalesByMethod(db: Kysely<Database>, s: Scope) {
  const mixed = db
    .selectFrom('transactions as t')
    .where((eb) => inScope(eb, s))
    .where('t.payment_method', '=', 'Mixed')
    .where('t.status', 'in', SoldStatus.options);
  const [rows, back] = await Promise.all([
    mixed
      .innerJoin('transaction_payments as tp', (j) => j.onRef('tp.org_id', '=', 't.org_id').onRef('tp.transaction_id', '=', 't.id'))
      .select((eb) => ['tp.method', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('tp.amount').as('amount')])
      .groupBy('tp.method')
      .execute(),
    refundedPerMethod(mixed.where('t.part_refunds', '>', 0)),
  ]);
  return rows.map((r) => ({ method: r.method as string, count: num(r.n), revenue: num(r.amount) - (back.get(r.method) ?? 0) }));
}

type Sales = SelectQueryBuilder<Database & { t: Database['transactions'] }, 't', object>;

/** Cents the refunds of part of `sales` gave back per tender method. */
async function refundedPerMethod(sales: Sales): Promise<Map<string, number>> {
  const rows = await sales
    .innerJoin('refunds as r', (j) => j.onRef('r.org_id', '=', 't.org_id').onRef('r.transaction_id', '=', 't.id'))
    .innerJoin('refund_parts as rp', (j) => j.onRef('rp.org_id', '=', 'r.org_id').onRef('rp.refund_id', '=', 'r.id'))
    .select((eb) => ['rp.method', eb.fn.sum<number>('rp.amount').as('amount')])
    .groupBy('rp.method')
    .execute();
  return new Map(rows.map((r) => [r.method as string, num(r.amount)]));
}

/**
 * Refunds made in the range (by refund time): what went back over the counter. A sale refunded in
 * parts counts by its refunds (`partsOut`), not as a whole refund.
 */
export async function refundsOut(db: Kysely<Database>, s: Scope, buckets: DayBuckets) {
  const bucket = bucketOf('t.refunded_at', buckets);
  const [wholes, parts] = await Promise.all([
    db
      .selectFrom('transactions as t')
      .leftJoin('credit_tabs as ct', (j) => j.onRef('ct.transaction_id', '=', 't.id').onRef('ct.org_id', '=', 't.org_id'))
      .where((eb) => inScope(eb, s, 't.refunded_at'))
      .where('t.status', '=', 'refunded')
      .where('t.part_refunds', '=', 0)
      .select((eb) => [
        bucket.as('k'),
        eb.fn
          // What was paid: the total less the tab's part of it (issue 51: a credit part), plus what the tab had been paid.
          .sum<number>(sql`${sql.ref('t.total')} - coalesce(${sql.ref('ct.amount')}, 0) + coalesce(${sql.ref('ct.paid_amount')}, 0)`)
          .as('amount'),
      ])
      .groupBy(bucket)
      .execute(),
    partsOut(db, s, buckets),
  ]);
  return [...wholes, ...parts].map((r) => ({ key: num(r.k), amount: num(r.amount) }));
}

/**
 * Refunds of part made in the range (issue 51), by their time: their tender parts but the credit
 * one (the tab's balance falls by it; what a tab had been paid and is given back is under it too,
 * and is not told apart: docs/reports-and-analytics.md).
 */
function partsOut(db: Kysely<Database>, s: Scope, buckets: DayBuckets) {
  const bucket = bucketOf('r.created_at', buckets);
  return db
    .selectFrom('refunds as r')
    .innerJoin('refund_parts as rp', (j) => j.onRef('rp.org_id', '=', 'r.org_id').onRef('rp.refund_id', '=', 'r.id'))
    .where('r.org_id', '=', s.orgId)
    .$if(s.storeId !== null, (q) => q.where('r.store_id', '=', s.storeId!))
    .where('r.created_at', '>=', s.from)
    .where('r.created_at', '<', s.to)
    .where('rp.method', '!=', 'Credit')
    .select((eb) => [bucket.as('k'), eb.fn.sum<number>('rp.amount').as('amount')])
    .groupBy(bucket)
    .execute();
}

/** Takings at the till (the non-credit parts of sales not voided: issue 51) by day bucket and method. */
export async function takingsByDayAndMethod(db: Kysely<Database>, s: Scope, buckets: DayBuckets) {
  const bucket = bucketOf('t.created_at', buckets);
  const rows = await db
    .selectFrom('transactions as t')
    .innerJoin('transaction_payments as tp', (j) => j.onRef('tp.org_id', '=', 't.org_id').onRef('tp.transaction_id', '=', 't.id'))
    .where((eb) => inScope(eb, s))
    .where('t.status', 'in', ['paid', 'credit', 'refunded'])
    .where('tp.method', '!=', 'Credit')
    .select((eb) => [bucket.as('k'), 'tp.method', eb.fn.sum<number>('tp.amount').as('amount')])
    .groupBy([bucket, 'tp.method'])
    .execute();
  return rows.map((r) => ({ key: num(r.k), method: r.method as string, amount: num(r.amount) }));
}

/** Credit payments received in the range by day bucket and method. */
export async function creditPaymentsByDayAndMethod(db: Kysely<Database>, s: Scope, buckets: DayBuckets) {
  const bucket = bucketOf('p.created_at', buckets);
  let q = db
    .selectFrom('credit_payments as p')
    .where('p.org_id', '=', s.orgId)
    .where('p.created_at', '>=', s.from)
    .where('p.created_at', '<', s.to);
  if (s.storeId) q = q.where('p.store_id', '=', s.storeId);
  const rows = await q
    .select((eb) => [bucket.as('k'), 'p.method', eb.fn.sum<number>('p.amount').as('amount')])
    .groupBy([bucket, 'p.method'])
    .execute();
  return rows.map((r) => ({ key: num(r.k), method: r.method, amount: num(r.amount) }));
}

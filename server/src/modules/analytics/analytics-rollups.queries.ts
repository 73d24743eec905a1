/**
 * The daily rollups (migration 0011): how they are rebuilt from the ledger and read. A rebuild of
 * some local days is a delete of their rows and one INSERT … SELECT … GROUP BY per batch of days
 * over the instants of those days; the day of a sale is a CASE over the days' bounds (computed in
 * JS from the time zone, so no date SQL and daylight saving is right). Reads are grouped sums over
 * the rollups of whole local days.
 */
import { SoldStatus } from '@duka/shared';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { SalesDailyTable } from '../../db/tables/analytics.table.js';
import { forUpdate, type DialectName } from '../../db/dialect.js';
import { keptCounts, lineCost, lineItems, productUnit, refundedOfLine } from '../stock-levels/stock-levels.exports.js';

const num = (v: unknown) => Number(v ?? 0);

/** A local day and its instants [from, to). */
export interface DaySpan {
  day: string;
  from: number;
  to: number;
}

/** The organisation's version, time zone and pruning floor beside what the rollups hold. */
export async function rollupStatus(db: Kysely<Database>, orgId: string) {
  const row = await db
    .selectFrom('organisations as o')
    .leftJoin('analytics_rollup_state as s', 's.org_id', 'o.id')
    .leftJoin('change_log_floor as f', 'f.org_id', 'o.id')
    .select(['o.version', 'o.timezone', 's.version as built', 's.time_zone as built_tz', 'f.version as floor'])
    .where('o.id', '=', orgId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    version: num(row.version),
    tz: row.timezone,
    built: row.built === null ? null : num(row.built),
    builtTz: row.built_tz,
    floor: num(row.floor),
  };
}

/** The state row, created empty (never built) if missing; concurrent creators both succeed. */
export async function ensureRollupState(db: Kysely<Database>, orgId: string) {
  await db
    .insertInto('analytics_rollup_state')
    .values({ org_id: orgId, version: 0, time_zone: null })
    .onConflict((oc) => oc.column('org_id').doNothing())
    .execute();
}

/** Lock the organisation's state row until the transaction ends (refreshes of one organisation run one at a time). */
export function lockRollupState(dialect: DialectName, db: Kysely<Database>, orgId: string) {
  return forUpdate(
    dialect,
    db.selectFrom('analytics_rollup_state').select(['version', 'time_zone']).where('org_id', '=', orgId),
  ).executeTakeFirstOrThrow();
}

export async function saveRollupState(db: Kysely<Database>, orgId: string, version: number, tz: string) {
  await db.updateTable('analytics_rollup_state').set({ version, time_zone: tz }).where('org_id', '=', orgId).execute();
}

/** Store and time of every sale named by a change-log entry with version in (after, upTo]. */
export function changedSales(db: Kysely<Database>, orgId: string, after: number, upTo: number) {
  return db
    .selectFrom('change_log as c')
    .innerJoin('transactions as t', 't.id', 'c.entity_id')
    .select(['t.store_id', 't.created_at'])
    .distinct()
    .where('c.org_id', '=', orgId)
    .where('c.version', '>', after)
    .where('c.version', '<=', upTo)
    .where('c.entity', '=', 'transaction')
    .where('t.org_id', '=', orgId)
    .execute();
}

/** First and last sale time of the organisation (null without sales). */
export async function salesSpan(db: Kysely<Database>, orgId: string) {
  const r = await db
    .selectFrom('transactions')
    .select((eb) => [eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')])
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return r?.first === null || r?.first === undefined ? null : { first: num(r.first), last: num(r.last) };
}

/** Delete the rollups of the organisation: all, or `days` of one store. */
export async function deleteRollups(db: Kysely<Database>, orgId: string, only?: { storeId: string; days: string[] }) {
  for (const table of ['sales_daily', 'sales_daily_products'] as const) {
    let q = db.deleteFrom(table).where('org_id', '=', orgId);
    if (only) q = q.where('store_id', '=', only.storeId).where('day', 'in', only.days);
    await q.execute();
  }
}

/**
 * Refresh the planner's statistics of the rollups after a full rebuild (same statement on both
 * databases): a freshly filled table has none, and Postgres would walk the whole index row by row.
 */
export async function analyzeRollups(db: Kysely<Database>) {
  for (const table of ['sales_daily', 'sales_daily_products']) await sql`analyze ${sql.table(table)}`.execute(db);
}

/** `where` for sales made in `spans` (sorted, adjacent spans merged into one range). */
function inSpans(spans: DaySpan[]): RawBuilder<boolean> {
  const runs: Array<{ from: number; to: number }> = [];
  for (const s of spans) {
    const last = runs[runs.length - 1];
    if (last && last.to === s.from) last.to = s.to;
    else runs.push({ from: s.from, to: s.to });
  }
  const each = runs.map((r) => sql`(${sql.ref('t.created_at')} >= ${sql.lit(r.from)} and ${sql.ref('t.created_at')} < ${sql.lit(r.to)})`);
  return sql<boolean>`(${sql.join(each, sql` or `)})`;
}

/** The local day of `t.created_at` among `spans` (literals, so that SELECT and GROUP BY are the same expression). */
function dayCase(spans: DaySpan[]): RawBuilder<string> {
  for (const s of spans) if (!Number.isSafeInteger(s.to) || !/^\d{4}-\d{2}-\d{2}$/.test(s.day)) throw new Error('bad day span');
  const whens = spans.map((s) => sql`when ${sql.ref('t.created_at')} < ${sql.lit(s.to)} then ${sql.lit(s.day)}`);
  return sql<string>`case ${sql.join(whens, sql` `)} end`;
}

const sold = sql`${sql.ref('t.status')} in (${sql.join(SoldStatus.options.map((s) => sql.lit(s)))})`;
const when = (cond: RawBuilder<unknown>, value: RawBuilder<unknown>) => sql<number>`sum(case when ${cond} then ${value} else 0 end)`;
/** Σ over the sale's lines, read through the covering (transaction_id, …) index. */
const ofLines = (expr: RawBuilder<unknown>) =>
  sql`coalesce((select sum(${expr}) from ${sql.table('transaction_lines')} as ${sql.raw('l')} where ${sql.ref('l.org_id')} = ${sql.ref('t.org_id')} and ${sql.ref('l.transaction_id')} = ${sql.ref('t.id')}), 0)`;

/**
 * The figure columns of `sales_daily` by the name reads answer with: the one list the rebuild
 * writes and the reads sum, so the two cannot disagree about the row's shape.
 */
const COLS = {
  salesCount: 'sales_count',
  revenue: 'revenue',
  vat: 'vat',
  discount: 'discount',
  items: 'items',
  net: 'net',
  cost: 'cost',
  refundCount: 'refund_count',
  refundTotal: 'refund_total',
  voidCount: 'void_count',
  voidTotal: 'void_total',
} as const satisfies Record<string, keyof SalesDailyTable>;

export type RollupFigures = Record<keyof typeof COLS, number>;

/** Recompute the rollups of `spans` (sorted local days, at most a few dozen) for the organisation or one store; their rows must be deleted first. */
export async function insertRollups(db: Kysely<Database>, orgId: string, storeId: string | null, spans: DaySpan[]) {
  if (!spans.length) return;
  const day = dayCase(spans);
  const cashier = sql<string>`coalesce(${sql.ref('t.cashier_id')}, '')`;
  const status = (s: string) => sql`${sql.ref('t.status')} = ${sql.lit(s)}`;
  const one = sql.lit(1);
  // A line's counts are pieces or thousandths: items and cost read them in the product's unit.
  const unit = productUnit('l.org_id', 'l.product_id');
  const keys = {
    org_id: sql.ref('t.org_id'),
    store_id: sql.ref('t.store_id'),
    day,
    payment_method: sql.ref('t.payment_method'),
    cashier_id: cashier,
  };
  // Issue 51: a sale refunded in part counts less what its refunds gave back (money, VAT, counts,
  // their cost), and that money with the refunds, on the sale's day as a whole refund counts.
  const partRefunded = sql`(${sold} and ${sql.ref('t.part_refunds')} > 0)`;
  const figures: Record<keyof RollupFigures, RawBuilder<unknown>> = {
    salesCount: when(sold, one),
    revenue: when(sold, sql`${sql.ref('t.total')} - ${sql.ref('t.refunded_total')}`),
    vat: when(sold, sql`${sql.ref('t.tax')} - ${sql.ref('t.refunded_tax')}`),
    discount: when(sold, sql.ref('t.discount')),
    items: when(sold, ofLines(lineItems(keptCounts(), unit))),
    net: when(
      sold,
      sql`${ofLines(sql`${sql.ref('l.line_total')} - ${sql.ref('l.discount')} - ${sql.ref('l.tax')}`)} - ${sql.ref('t.refunded_total')} + ${sql.ref('t.refunded_tax')}`,
    ),
    cost: when(sold, ofLines(lineCost(keptCounts(), 'l.cost_price', unit))),
    refundCount: when(sql`(${status('refunded')} or ${partRefunded})`, one),
    refundTotal: sql`${when(status('refunded'), sql.ref('t.total'))} + ${when(sold, sql.ref('t.refunded_total'))}`,
    voidCount: when(status('void'), one),
    voidTotal: when(status('void'), sql.ref('t.total')),
  };
  // INSERT … SELECT pairs columns by position: both lists come from this one record.
  const row: Record<string, RawBuilder<unknown>> = {
    ...keys,
    ...Object.fromEntries(Object.entries(COLS).map(([k, col]) => [col, figures[k as keyof RollupFigures]])),
  };
  const columns = Object.keys(row) as Array<keyof SalesDailyTable>;
  let sales = db
    .selectFrom('transactions as t')
    .where('t.org_id', '=', orgId)
    .where(inSpans(spans))
    .select(columns.map((col) => row[col]!.as(col)))
    .groupBy(Object.values(keys));
  if (storeId) sales = sales.where('t.store_id', '=', storeId);
  await db.insertInto('sales_daily').columns(columns).expression(sales).execute();

  let lines = db
    .selectFrom('transactions as t')
    .crossJoin('transaction_lines as l')
    .whereRef('l.transaction_id', '=', 't.id')
    .whereRef('l.org_id', '=', 't.org_id')
    .where('t.org_id', '=', orgId)
    .where(inSpans(spans))
    .where('t.status', 'in', SoldStatus.options)
    .select((eb) => [
      't.org_id',
      't.store_id',
      day.as('day'),
      'l.product_id',
      // What refunds of part took back of the line is left out (issue 51).
      eb.fn.sum<number>(keptCounts()).as('qty'),
      eb.fn.sum<number>(sql`${sql.ref('l.line_total')} - ${sql.ref('l.discount')} - ${refundedOfLine('amount')}`).as('revenue'),
      eb.fn
        .sum<number>(
          sql`${sql.ref('l.line_total')} - ${sql.ref('l.discount')} - ${sql.ref('l.tax')} - ${refundedOfLine('amount')} + ${refundedOfLine('tax')}`,
        )
        .as('net'),
      eb.fn.sum<number>(lineCost(keptCounts(), 'l.cost_price', unit)).as('cost'),
    ])
    .groupBy(['t.org_id', 't.store_id', day, 'l.product_id']);
  if (storeId) lines = lines.where('t.store_id', '=', storeId);
  await db
    .insertInto('sales_daily_products')
    .columns(['org_id', 'store_id', 'day', 'product_id', 'qty', 'revenue', 'net', 'cost'])
    .expression(lines)
    .execute();
}

/** What the rollup reads cover: the organisation (or one store) over local days `dateFrom`..`dateTo`. */
export interface DayScope {
  orgId: string;
  storeId: string | null;
  dateFrom: string;
  dateTo: string;
}

export type RollupKey = 'payment_method' | 'day' | 'store_id' | 'cashier_id';

/** Sales figures of the scope's days grouped by `key` (cashier `''` = none, answered as null). */
export async function rollupTotalsBy(db: Kysely<Database>, s: DayScope, key: RollupKey) {
  let q = db.selectFrom('sales_daily as d').where('d.org_id', '=', s.orgId).where('d.day', '>=', s.dateFrom).where('d.day', '<=', s.dateTo);
  if (s.storeId) q = q.where('d.store_id', '=', s.storeId);
  const rows = await q
    .select(`d.${key}` as 'd.day')
    .select((eb) => Object.entries(COLS).map(([alias, col]) => eb.fn.sum<number>(`d.${col}`).as(alias)))
    .groupBy(`d.${key}`)
    .execute();
  return rows.map((r) => {
    const raw = r as unknown as Record<string, unknown>;
    const figures = Object.fromEntries(Object.keys(COLS).map((k) => [k, num(raw[k])])) as unknown as RollupFigures;
    const k = raw[key] as string;
    return { key: key === 'cashier_id' && k === '' ? null : k, ...figures };
  });
}

/** Sold-line figures of the scope's days by product. */
export async function rollupProducts(db: Kysely<Database>, s: DayScope) {
  let q = db
    .selectFrom('sales_daily_products as p')
    .where('p.org_id', '=', s.orgId)
    .where('p.day', '>=', s.dateFrom)
    .where('p.day', '<=', s.dateTo);
  if (s.storeId) q = q.where('p.store_id', '=', s.storeId);
  const rows = await q
    .select(['p.product_id'])
    .select((eb) => [
      eb.fn.sum<number>('p.qty').as('qty'),
      eb.fn.sum<number>('p.revenue').as('revenue'),
      eb.fn.sum<number>('p.net').as('net'),
      eb.fn.sum<number>('p.cost').as('cost'),
    ])
    .groupBy('p.product_id')
    .execute();
  return rows.map((r) => ({ productId: r.product_id, qty: num(r.qty), revenue: num(r.revenue), net: num(r.net), cost: num(r.cost) }));
}

/** The name on the latest receipt of products no longer in the catalogue. */
export async function receiptNames(db: Kysely<Database>, orgId: string, ids: string[]) {
  if (!ids.length) return new Map<string, string>();
  const rows = await db
    .selectFrom('transaction_lines')
    .select(['product_id'])
    .select((eb) => eb.fn.max('product_name').as('name'))
    .where('org_id', '=', orgId)
    .where('product_id', 'in', ids)
    .groupBy('product_id')
    .execute();
  return new Map(rows.map((r) => [r.product_id, String(r.name)]));
}

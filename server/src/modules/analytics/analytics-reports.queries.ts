/** Aggregate reads behind the customers, products and cashflow reports. */
import { SoldStatus } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { owingTabs, pastDue, tabBalance } from '../customers/customers.exports.js';
import { bucketOf, type DayBuckets, type Scope } from './analytics.queries.js';

const num = (v: unknown) => Number(v ?? 0);

function soldInScope(db: Kysely<Database>, s: Scope) {
  let q = db
    .selectFrom('transactions as t')
    .where('t.org_id', '=', s.orgId)
    .where('t.created_at', '>=', s.from)
    .where('t.created_at', '<', s.to)
    .where('t.status', 'in', SoldStatus.options);
  if (s.storeId) q = q.where('t.store_id', '=', s.storeId);
  return q;
}

/** Count and revenue (less what refunds of part gave back: issue 51) of counted sales per customer (null = walk-in). */
export async function salesByCustomer(db: Kysely<Database>, s: Scope) {
  const rows = await soldInScope(db, s)
    .select(['t.customer_id'])
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(eb('t.total', '-', eb.ref('t.refunded_total'))).as('total')])
    .groupBy('t.customer_id')
    .execute();
  return rows.map((r) => ({ customerId: r.customer_id, n: num(r.n), total: num(r.total) }));
}

/** Customers served in the range who had a counted sale in scope before it. */
export async function returningCustomers(db: Kysely<Database>, s: Scope): Promise<number> {
  let before = db
    .selectFrom('transactions as b')
    .select('b.customer_id')
    .distinct()
    .where('b.org_id', '=', s.orgId)
    .where('b.created_at', '<', s.from)
    .where('b.status', 'in', SoldStatus.options)
    .where('b.customer_id', 'in', soldInScope(db, s).select('t.customer_id').where('t.customer_id', 'is not', null));
  if (s.storeId) before = before.where('b.store_id', '=', s.storeId);
  const rows = await before.execute();
  return rows.length;
}

export function customersByIds(db: Kysely<Database>, orgId: string, ids: string[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('customers').select(['id', 'name', 'phone', 'segment']).where('org_id', '=', orgId).where('id', 'in', ids).execute();
}

export async function activeCustomersBySegment(db: Kysely<Database>, orgId: string) {
  const rows = await db
    .selectFrom('customers')
    .select(['segment'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('is_active', '=', 1)
    .groupBy('segment')
    .execute();
  return rows.map((r) => ({ segment: r.segment, n: num(r.n) }));
}

/** Unpaid credit now per customer, and the part past its due date (`today` is the local date). */
export async function outstandingCredit(db: Kysely<Database>, s: Scope, today: string) {
  const rows = await owingTabs(db, s.orgId)
    .$if(s.storeId !== null, (q) => q.where('credit_tabs.store_id', '=', s.storeId!))
    .select('credit_tabs.customer_id')
    .select((eb) => [
      eb.fn.sum<number>(tabBalance(eb)).as('owed'),
      eb.fn.sum<number>(eb.case().when(pastDue(eb, today)).then(tabBalance(eb)).else(0).end()).as('overdue'),
    ])
    .groupBy('credit_tabs.customer_id')
    .execute();
  return rows.map((r) => ({ customerId: r.customer_id, owed: num(r.owed), overdue: num(r.overdue) }));
}

/** Products of the organisation (of one category) for the products report. */
export function productsForReport(db: Kysely<Database>, orgId: string, categoryId: string | undefined) {
  let q = db
    .selectFrom('products as p')
    .leftJoin('categories as c', (j) => j.onRef('c.id', '=', 'p.category_id').onRef('c.org_id', '=', 'p.org_id'))
    .select(['p.id', 'p.name', 'p.category_id', 'c.name as category_name', 'p.is_service', 'p.is_active', 'p.unit'])
    .where('p.org_id', '=', orgId);
  if (categoryId) q = q.where('p.category_id', '=', categoryId);
  return q.execute();
}

/** Current stock per product in scope (summed over the organisation's stores without a store filter). */
export async function stockByProduct(db: Kysely<Database>, s: Scope) {
  let q = db
    .selectFrom('product_stock as ps')
    .innerJoin('stores as st', (j) => j.onRef('st.id', '=', 'ps.store_id').onRef('st.org_id', '=', 'ps.org_id'))
    .select(['ps.product_id'])
    .select((eb) => eb.fn.sum<number>('ps.qty').as('qty'))
    .where('ps.org_id', '=', s.orgId)
    .groupBy('ps.product_id');
  if (s.storeId) q = q.where('ps.store_id', '=', s.storeId);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.product_id, num(r.qty)]));
}

export function findOrgCategory(db: Kysely<Database>, orgId: string, id: string) {
  return db.selectFrom('categories').select('id').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** Expenses spent in the range by day bucket and category. */
export async function expensesByDayAndCategory(db: Kysely<Database>, s: Scope, buckets: DayBuckets) {
  const bucket = bucketOf('e.spent_at', buckets);
  let q = db.selectFrom('expenses as e').where('e.org_id', '=', s.orgId).where('e.spent_at', '>=', s.from).where('e.spent_at', '<', s.to);
  if (s.storeId) q = q.where('e.store_id', '=', s.storeId);
  const rows = await q
    .select((eb) => [bucket.as('k'), 'e.category', eb.fn.sum<number>('e.amount').as('amount')])
    .groupBy([bucket, 'e.category'])
    .execute();
  return rows.map((r) => ({ key: num(r.k), category: r.category, amount: num(r.amount) }));
}

/** Payments to suppliers made in the range by day bucket. */
export async function supplierPaymentsByDay(db: Kysely<Database>, s: Scope, buckets: DayBuckets) {
  const bucket = bucketOf('sp.paid_at', buckets);
  let q = db
    .selectFrom('supplier_payments as sp')
    .where('sp.org_id', '=', s.orgId)
    .where('sp.paid_at', '>=', s.from)
    .where('sp.paid_at', '<', s.to);
  if (s.storeId) q = q.where('sp.store_id', '=', s.storeId);
  const rows = await q
    .select((eb) => [bucket.as('k'), eb.fn.sum<number>('sp.amount').as('amount')])
    .groupBy(bucket)
    .execute();
  return rows.map((r) => ({ key: num(r.k), amount: num(r.amount) }));
}

import { type Customer, newId, OwingTabStatus, SoldStatus, fromCents } from '@duka/shared';
import type { Expression, ExpressionBuilder, Insertable, Kysely, SqlBool } from 'kysely';
import { noteChange } from '../../db/change-log.js';
import type { Database } from '../../db/database.js';
import { iso } from '../../lib/clock.js';
import type { ServiceContext } from '../../lib/context.js';
import type { CustomerRow, CustomerTable } from '../../db/tables/customers.table.js';

/**
 * By id within the organisation. The plan must stay on the primary key even under stale planner
 * statistics that make an organisation's index look as selective (test/platform/planner-stats.test.ts).
 */
export const customerQuery = (db: Kysely<Database>, orgId: string, id: string) =>
  db.selectFrom('customers').selectAll().where('id', '=', id).where('org_id', '=', orgId);

/** A customer of `orgId` only: another organisation's id is not found. */
export function findCustomer(db: Kysely<Database>, orgId: string, id: string): Promise<CustomerRow | undefined> {
  return customerQuery(db, orgId, id).executeTakeFirst();
}

/** By E.164 phone within the organisation. */
export function findCustomerByPhone(db: Kysely<Database>, orgId: string, phone: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('org_id', '=', orgId).where('phone', '=', phone).executeTakeFirst();
}

/** `id` may be given: a till names the customers it creates offline. */
export type NewCustomerFields = Omit<Insertable<CustomerTable>, 'id' | 'org_id' | 'created_at' | 'updated_at'> & { id?: string };

/** Insert a customer and note it for tills; inside withTransaction. */
export async function insertCustomer(ctx: ServiceContext, orgId: string, fields: NewCustomerFields): Promise<CustomerRow> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .insertInto('customers')
    .values({
      org_id: orgId,
      email: null,
      notes: null,
      first_purchase_at: null,
      last_purchase_at: null,
      ...fields,
      id: fields.id ?? newId(),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  noteChange(ctx, orgId, { entity: 'customer', id: row.id });
  return row;
}

/** What a tab still owes, in cents. */
export function tabBalance(eb: ExpressionBuilder<Database, 'credit_tabs'>): Expression<number> {
  return eb(eb('credit_tabs.amount', '-', eb.ref('credit_tabs.paid_amount')), '-', eb.ref('credit_tabs.written_off_amount'));
}

/** The customer's outstanding balance in cents, as a correlated subquery over its tabs. */
export function outstandingOf(eb: ExpressionBuilder<Database, 'customers'>) {
  return eb
    .selectFrom('credit_tabs')
    .select((t) => t.fn.coalesce(t.fn.sum<number>(tabBalance(t)), t.lit(0)).as('owed'))
    .whereRef('credit_tabs.customer_id', '=', 'customers.id')
    .whereRef('credit_tabs.org_id', '=', 'customers.org_id')
    .where('credit_tabs.status', 'in', OwingTabStatus.options);
}

/** Customers of `orgId` with `outstanding` (cents). */
export function customersWithBalance(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('customers')
    .selectAll('customers')
    .select((eb) => outstandingOf(eb).as('outstanding'))
    .where('customers.org_id', '=', orgId);
}

export type CustomerWithBalanceRow = CustomerRow & { outstanding: number | string | null };

export function findCustomerWithBalance(db: Kysely<Database>, orgId: string, id: string): Promise<CustomerWithBalanceRow | undefined> {
  return customersWithBalance(db, orgId).where('customers.id', '=', id).executeTakeFirst();
}

export function toCustomer(row: CustomerWithBalanceRow): Customer {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    segment: row.segment,
    credit_limit: fromCents(Number(row.credit_limit)),
    notes: row.notes,
    is_active: row.is_active === 1,
    total_spend: fromCents(Number(row.total_spend)),
    visit_count: Number(row.visit_count),
    outstanding_balance: fromCents(Number(row.outstanding ?? 0)),
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

/** Tab `due_date` is before `today`: with a balance, the tab is overdue. */
export function pastDue(eb: ExpressionBuilder<Database, 'credit_tabs'>, today: string): Expression<SqlBool> {
  return eb('credit_tabs.due_date', '<', today);
}

/** The tabs of `orgId` with a balance still owed, with their customers: what every "who owes" figure is made of. */
export function owingTabs(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('credit_tabs')
    .innerJoin('customers', (j) =>
      j.onRef('customers.id', '=', 'credit_tabs.customer_id').onRef('customers.org_id', '=', 'credit_tabs.org_id'),
    )
    .where('credit_tabs.org_id', '=', orgId)
    .where('credit_tabs.status', 'in', OwingTabStatus.options)
    .where((eb) => eb(tabBalance(eb), '>', 0));
}

/**
 * Customers of `orgId` who owe something, with their credit figures: one grouped query over the
 * owing tabs (grouping by the customer's primary key lets both databases select its columns).
 */
export function customerCreditRows(db: Kysely<Database>, orgId: string, today: string, overdue: boolean | undefined) {
  return owingTabs(db, orgId)
    .groupBy(['customers.org_id', 'customers.id'])
    .selectAll('customers')
    .select((eb) => [
      eb.fn.sum<number>(tabBalance(eb)).as('outstanding'),
      eb.fn.countAll<number>().as('open_tabs'),
      eb.fn.sum<number>(eb.case().when(pastDue(eb, today)).then(1).else(0).end()).as('overdue_count'),
      eb.fn.min('credit_tabs.due_date').as('oldest_due_date'),
    ])
    .$if(overdue !== undefined, (qb) =>
      qb.having((eb) => eb(eb.fn.sum(eb.case().when(pastDue(eb, today)).then(1).else(0).end()), overdue ? '>' : '=', 0)),
    )
    .orderBy('oldest_due_date')
    .orderBy('customers.name')
    .orderBy('customers.id')
    .execute();
}

/** Ledger statuses that count as purchases. */

export interface PurchaseHistory {
  spend: number;
  visits: number;
  first: number | null;
  last: number | null;
  /** Purchases at or after `since`. */
  recent: number;
}

export const NO_PURCHASES: PurchaseHistory = { spend: 0, visits: 0, first: null, last: null, recent: 0 };

/** Paid and credit sales of each customer in `ids`, from the ledger: one grouped query. */
export async function purchaseHistory(
  db: Kysely<Database>,
  orgId: string,
  ids: string[],
  since: number,
): Promise<Map<string, PurchaseHistory>> {
  const out = new Map<string, PurchaseHistory>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('transactions')
    .where('org_id', '=', orgId)
    .where('customer_id', 'in', ids)
    .where('status', 'in', SoldStatus.options)
    .groupBy('customer_id')
    .select((eb) => [
      'customer_id',
      // Less what refunds of part gave back (issue 51); a refunded sale is not counted at all.
      eb.fn.sum<number>(eb('total', '-', eb.ref('refunded_total'))).as('spend'),
      eb.fn.countAll<number>().as('visits'),
      eb.fn.min('created_at').as('first'),
      eb.fn.max('created_at').as('last'),
      eb.fn.sum<number>(eb.case().when('created_at', '>=', since).then(1).else(0).end()).as('recent'),
    ])
    .execute();
  for (const r of rows) {
    out.set(r.customer_id!, {
      spend: Number(r.spend),
      visits: Number(r.visits),
      first: Number(r.first),
      last: Number(r.last),
      recent: Number(r.recent),
    });
  }
  return out;
}

/**
 * The lowest spend (cents) that is VIP: the organisation's top 10 % of customers who have bought
 * anything, at least one. Null when nobody has.
 */
export async function vipThreshold(db: Kysely<Database>, orgId: string): Promise<number | null> {
  const buyers = db.selectFrom('customers').where('org_id', '=', orgId).where('total_spend', '>', 0);
  const { n } = await buyers.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const count = Number(n);
  if (count === 0) return null;
  const top = Math.max(1, Math.floor(count / 10));
  const row = await buyers
    .select('total_spend')
    .orderBy('total_spend', 'desc')
    .limit(1)
    .offset(top - 1)
    .executeTakeFirstOrThrow();
  return Number(row.total_spend);
}

/**
 * The VIPs of `orgId` other than `customerId` whose spend is below `threshold` (all of them when
 * there is no threshold, nobody having bought anything): each falls back to its own segment.
 */
export function vipsBelow(db: Kysely<Database>, orgId: string, customerId: string, threshold: number | null) {
  return db
    .selectFrom('customers')
    .select(['id', 'created_at'])
    .where('org_id', '=', orgId)
    .where('segment', '=', 'VIP')
    .where('id', '!=', customerId)
    .$if(threshold !== null, (qb) => qb.where('total_spend', '<', threshold!))
    .execute();
}

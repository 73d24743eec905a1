import { type ListStaffQuery, SoldStatus, StaffRole, type StaffStats, fromCents } from '@duka/shared';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database } from '../../db/database.js';
import type { UserUpdate } from '../../db/tables/accounts.table.js';
import { containsText, type DialectName } from '../../db/dialect.js';
import { countedPage } from '../../db/page.js';
import { phoneFragment } from '../../lib/phone.js';

export interface TimeRange {
  from: number;
  to: number;
}

/** A staff member or manager of `orgId`; an owner or another organisation's user is not found. */
export function findStaffMember(db: Kysely<Database>, orgId: string, id: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('role', 'in', StaffRole.options)
    .executeTakeFirst();
}

/** Write `set` to a staff member or manager of `orgId` and answer the row; undefined when `id` is not one. */
export function updateStaffMemberRow(db: Kysely<Database>, orgId: string, id: string, set: UserUpdate, now: number) {
  return db
    .updateTable('users')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('role', 'in', StaffRole.options)
    .returningAll()
    .executeTakeFirst();
}

type UsersEb = ExpressionBuilder<Database, 'users'>;

function matchesSearch(eb: UsersEb, dialect: DialectName, search: string): Expression<SqlBool> {
  const terms = search.split(/\s+/).filter(Boolean);
  const byName = eb.and(terms.map((term) => eb.or([containsText(dialect, 'first_name', term), containsText(dialect, 'last_name', term)])));
  const phone = phoneFragment(search);
  return phone ? eb.or([byName, containsText(dialect, 'phone', phone)]) : byName;
}

export async function listStaffRows(db: Kysely<Database>, dialect: DialectName, orgId: string, q: ListStaffQuery) {
  const search = q.search?.trim();
  const base = db
    .selectFrom('users')
    .where('org_id', '=', orgId)
    .where('role', 'in', q.role ? [q.role] : StaffRole.options)
    .$if(!!q.status, (qb) => qb.where('employment_status', '=', q.status!))
    .$if(!!q.shift, (qb) => qb.where('shift', '=', q.shift!))
    .$if(!!search, (qb) => qb.where((eb) => matchesSearch(eb, dialect, search!)));
  const dir = q.ordering.startsWith('-') ? 'desc' : 'asc';
  const ordered = q.ordering.endsWith('name')
    ? base
        .selectAll()
        .orderBy((eb) => eb.fn<string>('lower', [eb.ref('first_name')]), dir)
        .orderBy((eb) => eb.fn<string>('lower', [eb.ref('last_name')]), dir)
    : base.selectAll().orderBy('created_at', dir);
  const { rows, total } = await countedPage(base, ordered.orderBy('id', dir), { page: q.page, page_size: q.size });
  return { rows, total };
}

export const ZERO_STATS: StaffStats = { total_sales: 0, transaction_count: 0, average_ticket: 0, refund_count: 0, discount_total: 0 };

/** Sales figures per cashier from the ledger: sales are paid and credit rows; refunds are counted apart; voids do not count. */
export async function statsByCashier(db: Kysely<Database>, orgId: string, cashierIds: string[]): Promise<Map<string, StaffStats>> {
  const out = new Map<string, StaffStats>();
  if (cashierIds.length === 0) return out;
  const rows = await db
    .selectFrom('transactions')
    .where('org_id', '=', orgId)
    .where('cashier_id', 'in', cashierIds)
    .groupBy('cashier_id')
    .select((eb) => {
      const sold = (value: Expression<number>) =>
        eb.fn.sum<number>(eb.case().when('status', 'in', SoldStatus.options).then(value).else(eb.lit(0)).end());
      return [
        'cashier_id',
        sold(eb.ref('total')).as('total_cents'),
        sold(eb.lit(1)).as('sold_count'),
        sold(eb.ref('discount')).as('discount_cents'),
        eb.fn.sum<number>(eb.case().when('status', '=', 'refunded').then(eb.lit(1)).else(eb.lit(0)).end()).as('refund_count'),
      ];
    })
    .execute();
  for (const r of rows) {
    const total = Number(r.total_cents ?? 0);
    const count = Number(r.sold_count ?? 0);
    out.set(r.cashier_id!, {
      total_sales: fromCents(total),
      transaction_count: count,
      average_ticket: count ? fromCents(Math.round(total / count)) : 0,
      refund_count: Number(r.refund_count ?? 0),
      discount_total: fromCents(Number(r.discount_cents ?? 0)),
    });
  }
  return out;
}

export async function countActiveStaff(db: Kysely<Database>, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', 'in', StaffRole.options)
    .where('is_active', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Staff and managers who rang up a sale (any status) or signed in during `range`. */
export async function countActiveInRange(db: Kysely<Database>, orgId: string, range: TimeRange): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('users.org_id', '=', orgId)
    .where('users.role', 'in', StaffRole.options)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('transactions')
            .select('transactions.id')
            .whereRef('transactions.cashier_id', '=', 'users.id')
            .where('transactions.org_id', '=', orgId)
            .where('transactions.created_at', '>=', range.from)
            .where('transactions.created_at', '<', range.to),
        ),
        eb.exists(
          eb
            .selectFrom('audit_log')
            .select('audit_log.id')
            .whereRef('audit_log.user_id', '=', 'users.id')
            .where('audit_log.org_id', '=', orgId)
            .where('audit_log.action', '=', 'auth.login')
            .where('audit_log.created_at', '>=', range.from)
            .where('audit_log.created_at', '<', range.to),
        ),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Paid and credit sales rung up by staff and managers during `range`, in cents. */
export async function staffSalesCents(db: Kysely<Database>, orgId: string, range: TimeRange): Promise<number> {
  const row = await db
    .selectFrom('transactions')
    .innerJoin('users', 'users.id', 'transactions.cashier_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('transactions.total'), eb.lit(0)).as('cents'))
    .where('transactions.org_id', '=', orgId)
    .where('transactions.status', 'in', SoldStatus.options)
    .where('transactions.created_at', '>=', range.from)
    .where('transactions.created_at', '<', range.to)
    .where('users.role', 'in', StaffRole.options)
    .executeTakeFirstOrThrow();
  return Number(row.cents);
}

/** What the user did, and what was done to their record, during `range`; oldest first. */
export function activityRows(db: Kysely<Database>, orgId: string, userId: string, range: TimeRange) {
  return db
    .selectFrom('audit_log')
    .select(['action', 'description', 'created_at'])
    .where('org_id', '=', orgId)
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.to)
    .where((eb) => eb.or([eb('user_id', '=', userId), eb.and([eb('entity', '=', 'user'), eb('entity_id', '=', userId)])]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

import { SoldStatus, StaffRole } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import type { ServiceContext } from '../../lib/context.js';

export type StoreFilter = { status?: string; isActive?: boolean };

export function listStores(db: Kysely<Database>, orgId: string, filter: StoreFilter = {}) {
  let q = db.selectFrom('stores').selectAll().where('org_id', '=', orgId);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.isActive !== undefined) q = q.where('is_active', '=', filter.isActive ? 1 : 0);
  return q.orderBy('created_at').orderBy('id').execute();
}

/** Ids of the organisation's active stores, locked until the transaction ends (Postgres). */
export function lockActiveStoreIds(ctx: ServiceContext, orgId: string) {
  return forUpdate(ctx.dialect, ctx.db.selectFrom('stores').select('id').where('org_id', '=', orgId).where('is_active', '=', 1)).execute();
}

export async function countStores(db: Kysely<Database>, orgId: string) {
  const row = await db
    .selectFrom('stores')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('is_active').as('active')])
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active ?? 0) };
}

/** Transactions that count as sales: paid, or sold on credit. Refunded and voided ones do not. */

/** Sales in cents and their number per store, for `created_at` in [from, to). Stores without sales are absent. */
export async function salesByStore(db: Kysely<Database>, orgId: string, from: number, to: number) {
  const rows = await db
    .selectFrom('transactions')
    // Less what refunds of part gave back (issue 51), as a refunded sale counts nothing.
    .select((eb) => [
      'store_id',
      eb.fn.sum<number>(eb('total', '-', eb.ref('refunded_total'))).as('cents'),
      eb.fn.countAll<number>().as('n'),
    ])
    .where('org_id', '=', orgId)
    .where('status', 'in', SoldStatus.options)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy('store_id')
    .execute();
  return new Map(rows.map((r) => [r.store_id, { cents: Number(r.cents ?? 0), count: Number(r.n) }]));
}

/**
 * A store's sales per day, given the instants where consecutive days start (`bounds`, ascending,
 * one more than the number of days). Day `i` is [bounds[i], bounds[i+1]); the bucket is computed in
 * SQL with a CASE, so days of any length (daylight saving) are right on both databases.
 */
export async function salesByDay(db: Kysely<Database>, orgId: string, storeId: string, bounds: number[]) {
  const rows = await db
    .selectFrom('transactions')
    .select((eb) => {
      let bucket = eb.case().when('created_at', '<', bounds[1]!).then(eb.lit<number>(0));
      for (let i = 2; i < bounds.length - 1; i++) bucket = bucket.when('created_at', '<', bounds[i]!).then(eb.lit(i - 1));
      return [
        bucket
          .else(eb.lit(bounds.length - 2))
          .end()
          .as('day'),
        eb.fn.sum<number>(eb('total', '-', eb.ref('refunded_total'))).as('cents'),
        eb.fn.countAll<number>().as('n'),
      ];
    })
    .where('org_id', '=', orgId)
    .where('store_id', '=', storeId)
    .where('status', 'in', SoldStatus.options)
    .where('created_at', '>=', bounds[0]!)
    .where('created_at', '<', bounds[bounds.length - 1]!)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [Number(r.day), { cents: Number(r.cents ?? 0), count: Number(r.n) }]));
}

/** Active users with employment status active and one of `shifts`, counted per store. */
export async function staffOnShiftByStore(db: Kysely<Database>, orgId: string, shifts: string[]) {
  if (!shifts.length) return new Map<string, number>();
  const rows = await db
    .selectFrom('users')
    .select((eb) => ['store_id', eb.fn.countAll<number>().as('n')])
    .where('org_id', '=', orgId)
    .where('is_active', '=', 1)
    .where('employment_status', '=', 'active')
    .where('shift', 'in', shifts)
    .where('store_id', 'is not', null)
    .groupBy('store_id')
    .execute();
  return new Map(rows.map((r) => [r.store_id!, Number(r.n)]));
}

/** Active user accounts of any role assigned to the store, by name. */
export function listStoreUsers(db: Kysely<Database>, orgId: string, storeId: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('store_id', '=', storeId)
    .where('is_active', '=', 1)
    .orderBy('first_name')
    .orderBy('last_name')
    .orderBy('id')
    .execute();
}

/** Active users of the organisation with role staff or manager. */
export async function countStaff(db: Kysely<Database>, orgId: string) {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('is_active', '=', 1)
    .where('role', 'in', StaffRole.options)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

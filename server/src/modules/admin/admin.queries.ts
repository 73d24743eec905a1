/** The platform admin's reads across every organisation: organisations with their counts, products, categories, deliveries. */
import { SoldStatus } from '@duka/shared';
import type { ExpressionBuilder, Kysely, RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { crossOrg } from '../../db/tenant-scope-check.js';
import { owing } from '../suppliers/suppliers.exports.js';

/** The store an admin acts in when none is named: the organisation's oldest active one, else its oldest. */
export function defaultStoreOf(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('stores')
    .select('id')
    .where('org_id', '=', orgId)
    .orderBy('is_active', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

/** Organisations with how many stores and users each has and the code of its plan (null: none). */
export function organisationsCounted(db: Kysely<Database>) {
  return db
    .selectFrom('organisations as o')
    .selectAll('o')
    .select((eb) => [
      eb
        .selectFrom('stores')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('stores.org_id', '=', 'o.id')
        .as('store_count'),
      eb
        .selectFrom('users')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('users.org_id', '=', 'o.id')
        .as('user_count'),
      eb
        .selectFrom('subscriptions as s')
        .innerJoin('plans as p', 'p.id', 's.plan_id')
        .select('p.code')
        .whereRef('s.org_id', '=', 'o.id')
        .as('plan_code'),
    ]);
}

export function productsWithOrg(db: Kysely<Database>) {
  return db.selectFrom('products as p').innerJoin('organisations as o', 'o.id', 'p.org_id');
}

/** Products with `stock` summed over every store of their organisation. */
export function selectProducts(db: Kysely<Database>) {
  return productsWithOrg(db)
    .selectAll('p')
    .select(['o.name as organisation_name', 'o.expiry_alert_days as org_expiry_alert_days'])
    .select((eb) =>
      eb
        .selectFrom('product_stock')
        .select((s) => s.fn.coalesce(s.fn.sum<number>('product_stock.qty'), s.lit(0)).as('qty'))
        .whereRef('product_stock.product_id', '=', 'p.id')
        .whereRef('product_stock.org_id', '=', 'p.org_id')
        .as('stock'),
    );
}

/** The product's quantity in each store of its organisation (0 where it has none), oldest store first. */
export function productStockByStore(db: Kysely<Database>, orgId: string, productId: string) {
  return db
    .selectFrom('stores as s')
    .leftJoin('product_stock as ps', (j) =>
      j.onRef('ps.store_id', '=', 's.id').onRef('ps.org_id', '=', 's.org_id').on('ps.product_id', '=', productId),
    )
    .select(['s.id as store_id', 's.name as store_name'])
    .select((eb) => eb.fn.coalesce('ps.qty', eb.lit(0)).as('qty'))
    .where('s.org_id', '=', orgId)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
}

/** How many of the product its organisation has sold (paid and credit sales). */
export function soldQtyOf(db: Kysely<Database>, orgId: string, productId: string) {
  return db
    .selectFrom('transaction_lines as l')
    .innerJoin('transactions as t', (j) => j.onRef('t.id', '=', 'l.transaction_id').onRef('t.org_id', '=', 'l.org_id'))
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('l.qty'), eb.lit(0)).as('qty'))
    .where('l.org_id', '=', orgId)
    .where('l.product_id', '=', productId)
    .where('t.status', 'in', SoldStatus.options)
    .executeTakeFirstOrThrow();
}

/** Organisations created in [from, to), counted per `day` (an expression over `o.created_at`). */
export function signupsByDay(db: Kysely<Database>, from: number, to: number, day: RawBuilder<number>) {
  return db
    .selectFrom('organisations as o')
    .where('o.created_at', '>=', from)
    .where('o.created_at', '<', to)
    .select((eb) => [day.as('day'), eb.fn.countAll<number>().as('n')])
    .groupBy(day)
    .modifyEnd(crossOrg('platform operators'))
    .execute();
}

/** Categories with their organisation's name and how many products each holds. */
export function selectCategories(db: Kysely<Database>) {
  return db
    .selectFrom('categories as c')
    .innerJoin('organisations as o', 'o.id', 'c.org_id')
    .selectAll('c')
    .select(['o.name as organisation_name', 'o.expiry_alert_days as org_expiry_alert_days'])
    .select((eb) =>
      eb
        .selectFrom('products')
        .select((p) => p.fn.countAll<number>().as('n'))
        .whereRef('products.category_id', '=', 'c.id')
        .whereRef('products.org_id', '=', 'c.org_id')
        .as('product_count'),
    );
}

/** The supplier's live deliveries in every store; `unpaid` true: only those still owed, false: only paid ones. */
export function supplierDeliveries(db: Kysely<Database>, orgId: string, supplierId: string, unpaid: boolean | undefined) {
  return db
    .selectFrom('deliveries')
    .innerJoin('suppliers', (j) =>
      j.onRef('suppliers.id', '=', 'deliveries.supplier_id').onRef('suppliers.org_id', '=', 'deliveries.org_id'),
    )
    .where('deliveries.org_id', '=', orgId)
    .where('deliveries.supplier_id', '=', supplierId)
    .where('deliveries.deleted_at', 'is', null)
    .$if(unpaid === true, (qb) =>
      qb
        .where((eb) => owing(eb as ExpressionBuilder<Database, 'deliveries'>))
        .where((eb) => eb('deliveries.total_value', '>', eb.ref('deliveries.paid_amount'))),
    )
    .$if(unpaid === false, (qb) => qb.where('deliveries.is_paid', '=', 1));
}

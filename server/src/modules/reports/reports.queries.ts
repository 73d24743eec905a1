/**
 * The reports' reads. Row listings are keyset pages (`PAGE` rows after the last key seen), so a
 * report of any length is read in bounded chunks and never held whole in memory.
 */
import { SoldStatus } from '@duka/shared';
import type { UpdateScheduledReportInput } from '@duka/shared';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { crossOrg } from '../../db/tenant-scope-check.js';
import { owingTabs, pastDue, tabBalance } from '../customers/customers.exports.js';
import { refundedOfLine } from '../stock-levels/stock-levels.exports.js';
import type { ReportExportRow, ScheduledReportRow } from '../../db/tables/reports.table.js';

export const PAGE = 1000;
/** Sales that count in totals; refunded and void ones are listed with their status but not summed. */

export interface SalesScope {
  orgId: string;
  storeId: string;
  start: number;
  end: number;
}

export interface SaleKey {
  at: number;
  id: string;
}

/** One page of the sales listing after `after`, oldest first. */
export function salesPage(db: Kysely<Database>, s: SalesScope, after: SaleKey | null) {
  return db
    .selectFrom('transactions as t')
    .leftJoin('users as u', 'u.id', 't.cashier_id')
    .leftJoin('customers as c', (j) => j.onRef('c.id', '=', 't.customer_id').onRef('c.org_id', '=', 't.org_id'))
    .select([
      't.id',
      't.created_at',
      't.receipt_number',
      't.payment_method',
      't.status',
      't.subtotal',
      't.discount',
      't.tax',
      't.total',
      't.refunded_total',
      't.customer_name',
      'c.name as customer_record_name',
      'u.first_name as cashier_first',
      'u.last_name as cashier_last',
    ])
    .where('t.org_id', '=', s.orgId)
    .where('t.store_id', '=', s.storeId)
    .where('t.created_at', '>=', s.start)
    .where('t.created_at', '<', s.end)
    .$if(after !== null, (qb) =>
      qb.where((eb) =>
        eb.or([eb('t.created_at', '>', after!.at), eb.and([eb('t.created_at', '=', after!.at), eb('t.id', '>', after!.id)])]),
      ),
    )
    .orderBy('t.created_at')
    .orderBy('t.id')
    .limit(PAGE)
    .execute();
}

/** Totals of the counted sales, and how many were refunded or voided, in one grouped query. */
export function salesTotalsByStatus(db: Kysely<Database>, s: SalesScope) {
  return db
    .selectFrom('transactions')
    .select((eb) => [
      'status',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('subtotal').as('subtotal'),
      eb.fn.sum<number>('discount').as('discount'),
      eb.fn.sum<number>('tax').as('tax'),
      eb.fn.sum<number>('total').as('total'),
      // Refunds of part (issue 51): how many sales had some, the cents and the VAT they gave back.
      eb.fn.sum<number>(eb.case().when('part_refunds', '>', 0).then(1).else(0).end()).as('part_refunded'),
      eb.fn.sum<number>('refunded_total').as('refunded_total'),
      eb.fn.sum<number>('refunded_tax').as('refunded_tax'),
    ])
    .where('org_id', '=', s.orgId)
    .where('store_id', '=', s.storeId)
    .where('created_at', '>=', s.start)
    .where('created_at', '<', s.end)
    .groupBy('status')
    .execute();
}

/**
 * VAT per product rate of the counted sales' lines. A line's VAT-inclusive amount is its total less
 * its share of the discount, less what refunds of part gave back of it (issue 51: the cents and the
 * VAT share kept in `refund_lines`); lines that carried no VAT (store not charging VAT, or a 0 %
 * product) are summed apart as `untaxed`.
 */
export function taxByRate(db: Kysely<Database>, s: SalesScope) {
  return db
    .selectFrom('transaction_lines as l')
    .innerJoin('transactions as t', (j) => j.onRef('t.id', '=', 'l.transaction_id').onRef('t.org_id', '=', 'l.org_id'))
    .select((eb) => {
      const gross = eb(eb('l.line_total', '-', eb.ref('l.discount')), '-', refundedOfLine('amount'));
      const taxed = eb('l.tax', '>', 0);
      return [
        'l.tax_rate',
        eb.fn.sum<number>(eb.case().when(taxed).then(gross).else(0).end()).as('taxed_gross'),
        eb.fn.sum<number>(eb.case().when(taxed).then(0).else(gross).end()).as('untaxed_gross'),
        eb.fn.sum<number>(eb('l.tax', '-', refundedOfLine('tax'))).as('vat'),
      ];
    })
    .where('t.org_id', '=', s.orgId)
    .where('t.store_id', '=', s.storeId)
    .where('t.created_at', '>=', s.start)
    .where('t.created_at', '<', s.end)
    .where('t.status', 'in', SoldStatus.options)
    .groupBy('l.tax_rate')
    .execute();
}

const categoryName = (eb: ExpressionBuilder<Database & { p: Database['products']; c: Database['categories'] }, 'p' | 'c'>) =>
  eb.fn.coalesce('c.name', eb.val(''));

function stockedProducts(db: Kysely<Database>, orgId: string, storeId: string) {
  return db
    .selectFrom('products as p')
    .leftJoin('categories as c', (j) => j.onRef('c.id', '=', 'p.category_id').onRef('c.org_id', '=', 'p.org_id'))
    .leftJoin('product_stock as s', (j) =>
      j.onRef('s.product_id', '=', 'p.id').onRef('s.org_id', '=', 'p.org_id').on('s.store_id', '=', storeId),
    )
    .where('p.org_id', '=', orgId)
    .where('p.is_active', '=', 1)
    .where('p.is_service', '=', 0);
}

export interface ProductKey {
  category: string;
  name: string;
  id: string;
}

/** One page of the store's stock, by category name, product name, id. */
export function inventoryPage(db: Kysely<Database>, orgId: string, storeId: string, after: ProductKey | null) {
  return stockedProducts(db, orgId, storeId)
    .select((eb) => [
      'p.id',
      'p.name',
      'p.sku',
      'p.cost_price',
      'p.selling_price',
      'p.unit',
      categoryName(eb).as('category'),
      eb.fn.coalesce('s.qty', eb.val(0)).as('qty'),
    ])
    .$if(after !== null, (qb) =>
      qb.where((eb) => {
        const cat = categoryName(eb);
        return eb.or([
          eb(cat, '>', after!.category),
          eb.and([
            eb(cat, '=', after!.category),
            eb.or([eb('p.name', '>', after!.name), eb.and([eb('p.name', '=', after!.name), eb('p.id', '>', after!.id)])]),
          ]),
        ]);
      }),
    )
    .orderBy((eb) => categoryName(eb))
    .orderBy('p.name')
    .orderBy('p.id')
    .limit(PAGE)
    .execute();
}

/** The packs of `productIds` (issue 51), per product: what an inventory row's stock is also said in. */
export async function packsOfProducts(db: Kysely<Database>, orgId: string, productIds: string[]) {
  const out = new Map<string, Array<{ name: string; units: number }>>();
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom('product_packs')
    .select(['product_id', 'name', 'units'])
    .where('org_id', '=', orgId)
    .where('product_id', 'in', productIds)
    .execute();
  for (const r of rows) out.set(r.product_id, [...(out.get(r.product_id) ?? []), { name: r.name, units: r.units }]);
  return out;
}
/**
 * Stock of piece products per category: counts and value (cents) summed in the database, one row
 * each. Measured products are valued one by one (`measuredStock`): their value is rounded per product.
 */
export function inventoryByCategory(db: Kysely<Database>, orgId: string, storeId: string) {
  return stockedProducts(db, orgId, storeId)
    .where('p.unit', '=', 'piece')
    .select((eb) => {
      const qty = eb.fn.coalesce('s.qty', eb.val(0));
      return [
        'p.category_id',
        eb.fn.max(categoryName(eb)).as('category'),
        eb.fn.count<number>('p.id').as('products'),
        eb.fn.sum<number>(qty).as('qty'),
        eb.fn.sum<number>(eb(qty, '*', eb.ref('p.cost_price'))).as('value_at_cost'),
        eb.fn.sum<number>(eb(qty, '*', eb.ref('p.selling_price'))).as('value_at_selling_price'),
      ];
    })
    .groupBy('p.category_id')
    .execute();
}

/** The store's stock of each measured product (kg, l…), in counts, with its category and prices (cents). */
export function measuredStock(db: Kysely<Database>, orgId: string, storeId: string) {
  return stockedProducts(db, orgId, storeId)
    .where('p.unit', '!=', 'piece')
    .select((eb) => [
      'p.category_id',
      'p.unit',
      'p.cost_price',
      'p.selling_price',
      categoryName(eb).as('category'),
      eb.fn.coalesce('s.qty', eb.val(0)).as('qty'),
    ])
    .execute();
}

export interface CustomerKey {
  name: string;
  id: string;
}

/** One page of customers who owe something, by name, with what is owed and overdue (cents). */
export function creditPage(db: Kysely<Database>, orgId: string, today: string, after: CustomerKey | null) {
  return owingTabs(db, orgId)
    .$if(after !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('customers.name', '>', after!.name),
          eb.and([eb('customers.name', '=', after!.name), eb('customers.id', '>', after!.id)]),
        ]),
      ),
    )
    .groupBy(['customers.org_id', 'customers.id'])
    .select((eb) => [
      'customers.id',
      eb.fn.max('customers.name').as('name'),
      eb.fn.max('customers.phone').as('phone'),
      eb.fn.sum<number>(tabBalance(eb)).as('outstanding'),
      eb.fn.sum<number>(eb.case().when(pastDue(eb, today)).then(tabBalance(eb)).else(0).end()).as('overdue'),
      eb.fn.countAll<number>().as('open_tabs'),
      eb.fn.sum<number>(eb.case().when(pastDue(eb, today)).then(1).else(0).end()).as('overdue_tabs'),
      eb.fn.min('credit_tabs.due_date').as('oldest_due_date'),
    ])
    .orderBy((eb) => eb.fn.max('customers.name'))
    .orderBy('customers.id')
    .limit(PAGE)
    .execute();
}

export function insertExport(db: Kysely<Database>, row: ReportExportRow) {
  return db.insertInto('report_exports').values(row).execute();
}

export function findExport(db: Kysely<Database>, orgId: string, id: string) {
  return db.selectFrom('report_exports').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export function listExports(db: Kysely<Database>, orgId: string, q: { limit: number; report_type?: string; format?: string }) {
  return db
    .selectFrom('report_exports')
    .selectAll()
    .where('org_id', '=', orgId)
    .$if(!!q.report_type, (qb) => qb.where('report_type', '=', q.report_type as ReportExportRow['report_type']))
    .$if(!!q.format, (qb) => qb.where('format', '=', q.format as ReportExportRow['format']))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit)
    .execute();
}

export function findSchedule(db: Kysely<Database>, orgId: string, id: string): Promise<ScheduledReportRow | undefined> {
  return db.selectFrom('scheduled_reports').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** The schedules of every organisation due by `now`: the sender's scan. */
export function dueSchedules(db: Kysely<Database>, now: number, limit: number) {
  return db
    .selectFrom('scheduled_reports')
    .selectAll()
    .where('is_enabled', '=', 1)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .orderBy('id')
    .limit(limit)
    .modifyEnd(crossOrg('job scan'))
    .execute();
}

/** The schedule as read from the due list is still enabled and due at the same time (no other instance sent it since). */
export async function isStillDue(db: Kysely<Database>, s: Pick<ScheduledReportRow, 'org_id' | 'id' | 'next_run_at'>): Promise<boolean> {
  const row = await db
    .selectFrom('scheduled_reports')
    .select('id')
    .where('org_id', '=', s.org_id)
    .where('id', '=', s.id)
    .where('next_run_at', '=', s.next_run_at)
    .where('is_enabled', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The schedule's fields present in `input` (recipients stored once each, as JSON), and its next
 * send time when `nextRunAt` is given.
 */
export async function updateSchedule(
  db: Kysely<Database>,
  orgId: string,
  id: string,
  input: UpdateScheduledReportInput,
  nextRunAt: number | undefined,
  now: number,
): Promise<void> {
  await db
    .updateTable('scheduled_reports')
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.frequency !== undefined ? { frequency: input.frequency } : {}),
      ...(input.date_range_preset !== undefined ? { date_range_preset: input.date_range_preset } : {}),
      ...(input.recipients !== undefined ? { recipients: JSON.stringify([...new Set(input.recipients)]) } : {}),
      ...(input.is_enabled !== undefined ? { is_enabled: input.is_enabled ? 1 : 0 } : {}),
      ...(nextRunAt !== undefined ? { next_run_at: nextRunAt } : {}),
      updated_at: now,
    })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

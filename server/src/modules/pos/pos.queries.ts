import { fromBasisPoints, fromCents, fromCount, newId, SoldStatus, toReceiptLine, type Unit } from '@duka/shared';
import type { Reversal, Transaction, TransactionFiscal } from '@duka/shared';
import { fiscalByTransaction, saleHasReceipt } from '../fiscal/fiscal.exports.js';
import { collectsFor } from '../payments/payments.exports.js';
import { dispensedLots, type SaleLot, saleTookLots } from '../pharmacy/pharmacy.exports.js';
import { keptCounts, lineItems, productUnit, soldSalesOfStore } from '../stock-levels/stock-levels.exports.js';
import type { ExpressionBuilder, Kysely, RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { containsText, type DialectName } from '../../db/dialect.js';
import type { Database } from '../../db/database.js';
import { iso, isoOrNull } from '../../lib/clock.js';
import type { TransactionLineRow, TransactionPaymentRow, TransactionRow } from '../../db/tables/pos.table.js';
import { groupBy } from '../../lib/group-by.js';
import { refundedByLine } from './refunds.queries.js';

/**
 * A stored line with its product's unit (issue 51). The unit is read from the product, not kept on
 * the line: a product's unit cannot change once it has a sale line, and a product with sales is
 * never deleted (only deactivated), so the product's unit is the line's for good.
 */
export type SoldLine = TransactionLineRow & { unit: Unit };

/**
 * `batches`: the sale's lot allocations (a sale has one line per product, so they go by product).
 * Quantities answer in each line's unit; lots' too.
 */
export function toTransaction(
  row: TransactionRow,
  lines: SoldLine[],
  batches: Array<Omit<SaleLot, 'transaction_id'>> = [],
  fiscal: TransactionFiscal | null = null,
  payments: TransactionPaymentRow[] = [],
  refunded: Map<string, { qty: number; amount: number }> = new Map(),
): Transaction {
  // Refunded whole, everything is back; otherwise what the refunds of part of it gave back (issue 51).
  const whole = row.status === 'refunded';
  const back = (l: SoldLine) => (whole ? l.qty : (refunded.get(l.id)?.qty ?? 0));
  return {
    id: row.id,
    number: row.number,
    receipt_number: row.receipt_number,
    client_receipt_number: row.client_receipt_number,
    status: row.status,
    payment_method: row.payment_method,
    payments: payments.map((p) => ({
      method: p.method,
      amount: fromCents(p.amount),
      reference: p.reference,
      phone: p.phone,
      verification: p.verification,
    })),
    payment_reference: row.payment_reference,
    payment_phone: row.payment_phone,
    payment_verification: row.payment_verification,
    price_mode: row.price_mode,
    subtotal: fromCents(row.subtotal),
    discount_pct: fromBasisPoints(row.discount_pct),
    discount: fromCents(row.discount),
    tax: fromCents(row.tax),
    total: fromCents(row.total),
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    customer_phone: row.customer_phone,
    customer_tin: row.customer_tin,
    till_number: row.till_number,
    notes: row.notes,
    cashier_id: row.cashier_id,
    store_id: row.store_id,
    source: row.source,
    client_created_at: isoOrNull(row.client_created_at),
    received_at: isoOrNull(row.received_at),
    cash_tendered: row.cash_tendered === null ? null : fromCents(row.cash_tendered),
    change_given: row.change_given === null ? null : fromCents(row.change_given),
    refund_reason: row.refund_reason,
    refunded_at: isoOrNull(row.refunded_at),
    void_reason: row.void_reason,
    voided_at: isoOrNull(row.voided_at),
    shift_id: row.shift_id,
    reversal_shift_id: row.reversal_shift_id,
    refunded_total: fromCents(whole ? row.total : Number(row.refunded_total)),
    created_at: iso(row.created_at),
    lines: lines.map((l) => ({
      ...toReceiptLine(
        l,
        batches
          .filter((b) => b.product_id === l.product_id)
          .map((b) => ({ batch_id: b.batch_id, lot_number: b.lot_number, expiry_date: b.expiry_date, qty: fromCount(b.qty, l.unit) })),
        l.pack_id === null ? null : { id: l.pack_id, name: l.pack_name ?? '', qty: Number(l.pack_qty) },
      ),
      refunded_qty: fromCount(back(l), l.unit),
    })),
    fiscal,
  };
}

/**
 * On transactions alone, by `id = ?` (and its organisation): SQLite then goes by the primary key
 * whatever its statistics say, never through a store's index (test/platform/planner-stats.test.ts).
 */
export const storeTransactionQuery = (db: Kysely<Database>, orgId: string, id: string) =>
  db.selectFrom('transactions').selectAll().where('id', '=', id).where('org_id', '=', orgId);

/** A transaction of the store, or undefined (another store's or organisation's id included). */
export async function findStoreTransaction(db: Kysely<Database>, at: { orgId: string; storeId: string }, id: string) {
  const row = await storeTransactionQuery(db, at.orgId, id).executeTakeFirst();
  return row?.store_id === at.storeId ? row : undefined;
}

/**
 * Rows with their lines and the lines' lots, in the order given. Rows read with `saleExtras` say
 * whether they took lots or have a fiscal receipt: only those are looked up (a plain shop's sales
 * cost two statements fewer); rows without the flags are looked up in full.
 */
export async function withLines(db: Kysely<Database>, rows: Array<TransactionRow & Partial<SaleExtras>>): Promise<Transaction[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const flagged = (flag: keyof SaleExtras) => rows.filter((r) => r[flag] === undefined || Number(r[flag]) === 1);
  // The rows' organisations: one for a shop, several on a platform operator's list.
  const orgIds = [...new Set(rows.map((r) => r.org_id))];
  const [lines, payments, lots, fiscal, refunded] = await Promise.all([
    db
      .selectFrom('transaction_lines')
      .selectAll('transaction_lines')
      .select(lineUnit().as('unit'))
      .where('transaction_lines.org_id', 'in', orgIds)
      .where('transaction_lines.transaction_id', 'in', ids)
      .orderBy('transaction_lines.id')
      .execute(),
    salePayments(db, orgIds, ids),
    lotsOf(db, orgIds, flagged('took_lots')),
    fiscalByTransaction(db, flagged('has_receipt')),
    // Only sales refunded in part have refund rows (their own count says so): most pages read none.
    refundedByLine(
      db,
      orgIds,
      rows.filter((r) => Number(r.part_refunds) > 0).map((r) => r.id),
    ),
  ]);
  const byTx = groupBy(lines, (l) => l.transaction_id);
  const lotsByTx = groupBy(lots, (l) => l.transaction_id);
  const paymentsByTx = groupBy(payments, (p) => p.transaction_id);
  return rows.map((r) =>
    toTransaction(r, byTx.get(r.id) ?? [], lotsByTx.get(r.id), fiscal.get(r.id) ?? null, paymentsByTx.get(r.id), refunded),
  );
}

/** What `withLines` needs to know of a sale to skip its lots' and receipt's reads (SQLite answers EXISTS with 0 or 1). */
export interface SaleExtras {
  took_lots: number | boolean;
  has_receipt: number | boolean;
}

/** The flags of SaleExtras, selected beside a read of `transactions`. */
export const saleExtras = (eb: ExpressionBuilder<Database, 'transactions'>) => [saleTookLots(eb), saleHasReceipt(eb)] as const;

const lotsOf = (db: Kysely<Database>, orgIds: string[], rows: TransactionRow[]) =>
  rows.length
    ? dispensedLots(
        db,
        orgIds,
        rows.map((r) => r.id),
      )
    : Promise.resolve([]);

/** The sales' parts (issue 51: every sale has at least one), in the order they were given. */
export function salePayments(db: Kysely<Database>, orgIds: string[], ids: string[]) {
  return db
    .selectFrom('transaction_payments')
    .selectAll()
    .where('org_id', 'in', orgIds)
    .where('transaction_id', 'in', ids)
    .orderBy('transaction_id')
    .orderBy('seq')
    .execute();
}

/** A line's product's unit (stock-levels' `productUnit`: piece should the product be gone). */
const lineUnit = () => productUnit('transaction_lines.org_id', 'transaction_lines.product_id');

/**
 * Claims a sale's refund or void: its status and who, when and why, only while it is still sold.
 * Undefined when it is not (a concurrent refund or void claimed it first).
 */
export function claimReversal(
  db: Kysely<Database>,
  sale: { id: string; org_id: string },
  move: Reversal,
  by: { reason: string; now: number; userId: string; shiftId: string | null },
) {
  const { reason, now, userId, shiftId } = by;
  return db
    .updateTable('transactions')
    .set(
      move === 'refund'
        ? { status: 'refunded', refund_reason: reason, refunded_at: now, refunded_by: userId, reversal_shift_id: shiftId, updated_at: now }
        : { status: 'void', void_reason: reason, voided_at: now, voided_by: userId, reversal_shift_id: shiftId, updated_at: now },
    )
    .where('org_id', '=', sale.org_id)
    .where('id', '=', sale.id)
    .where('status', 'in', SoldStatus.options)
    .returningAll()
    .executeTakeFirst();
}

/**
 * What decides where a reversed sale's goods go: its organisation's business type and its store's
 * outlet type. On stores alone by `id = ?`, the organisation's by subquery: SQLite then goes by the
 * primary key whatever its statistics say, where a join let it walk the organisation's stores.
 */
export function saleOutlet(db: Kysely<Database>, sale: { org_id: string; store_id: string }) {
  return db
    .selectFrom('stores as s')
    .select((eb) => [
      's.outlet_type',
      eb
        .selectFrom('organisations as o')
        .select('o.business_type')
        .whereRef('o.id', '=', 's.org_id')
        .$asScalar()
        .$notNull()
        .as('business_type'),
    ])
    .where('s.id', '=', sale.store_id)
    .where('s.org_id', '=', sale.org_id)
    .executeTakeFirstOrThrow();
}

/**
 * What a sale needs of its store (its receipt counter, VAT, outlet type, fiscal device) with its
 * organisation's settings: the read the sale's lock is taken with (`forUpdate`). The organisation's
 * columns are subqueries on its key (issue 53: one statement fewer a sale or push), so the lock is
 * on `stores` alone and SQLite goes by the store's key.
 */
export function saleStoreRow(db: Kysely<Database>, orgId: string, storeId: string) {
  return db
    .selectFrom('stores')
    .select(['code', 'vat_enabled', 'outlet_type', 'last_number', 'fiscal'])
    .select((eb) => {
      const org = eb.selectFrom('organisations as o').whereRef('o.id', '=', 'stores.org_id');
      return [
        org.select('o.business_type').$asScalar().$notNull().as('business_type'),
        org.select('o.timezone').$asScalar().$notNull().as('timezone'),
        org.select('o.credit_terms_days').$asScalar().$notNull().as('credit_terms_days'),
        collectsFor(orgId, storeId).as('collects'),
      ];
    })
    .where('id', '=', storeId)
    .where('org_id', '=', orgId);
}

/** A sale's lines with their products' names and kinds, in product-id order. */
export function saleLineProducts(db: Kysely<Database>, sale: { id: string; org_id: string }) {
  return db
    .selectFrom('transaction_lines as l')
    .innerJoin('products as p', (join) => join.onRef('p.org_id', '=', 'l.org_id').onRef('p.id', '=', 'l.product_id'))
    .select(['l.product_id', 'l.qty', 'p.name', 'p.is_service'])
    .where('l.org_id', '=', sale.org_id)
    .where('l.transaction_id', '=', sale.id)
    .orderBy('l.product_id')
    .execute();
}

/** Units of a reversed sale's line held in quarantine until inspected (a product without lots). */
export async function quarantineSaleUnits(
  db: Kysely<Database>,
  sale: { id: string; org_id: string; store_id: string },
  productId: string,
  qty: number,
  now: number,
): Promise<void> {
  await db
    .insertInto('stock_quarantine')
    .values({
      id: newId(),
      org_id: sale.org_id,
      store_id: sale.store_id,
      product_id: productId,
      transaction_id: sale.id,
      qty,
      created_at: now,
      resolved_at: null,
    })
    .execute();
}

/** The store's main batches (not quarantine rows) of these products, by id. */
export function mainBatchesOf(db: Kysely<Database>, at: { orgId: string; storeId: string }, productIds: string[]) {
  return db
    .selectFrom('batches')
    .selectAll()
    .where('org_id', '=', at.orgId)
    .where('store_id', '=', at.storeId)
    .where('product_id', 'in', productIds)
    .where('source_batch_id', 'is', null)
    .orderBy('id')
    .execute();
}

/**
 * The store's sold sales (paid, credit) made within [from, to), as `t`: the one filter of the
 * store's day figures (/pos/summary, the hourly summary). A sale refunded in part is still sold;
 * its `refunded_total` is what its refunds gave back (issue 51).
 */
export function storeSoldSales(db: Kysely<Database>, at: { orgId: string; storeId: string }, from: number, to: number) {
  return soldSalesOfStore(db, at).where('t.created_at', '>=', from).where('t.created_at', '<', to);
}

/** Items the store's sold sales within [from, to) still hold (refunded parts left out): pieces, one per measured line. */
export function unitsSold(db: Kysely<Database>, at: { orgId: string; storeId: string }, from: number, to: number) {
  return storeSoldSales(db, at, from, to)
    .innerJoin('transaction_lines as l', (join) => join.onRef('l.org_id', '=', 't.org_id').onRef('l.transaction_id', '=', 't.id'))
    .select((eb) =>
      eb.fn.coalesce(eb.fn.sum<number>(lineItems(keptCounts(), productUnit('l.org_id', 'l.product_id'))), eb.lit(0)).as('qty'),
    )
    .executeTakeFirstOrThrow();
}

/** When each sold sale of the store within [from, to) was made, and its total less what refunds of part gave back. */
export function salesBetween(db: Kysely<Database>, at: { orgId: string; storeId: string }, from: number, to: number) {
  return storeSoldSales(db, at, from, to).select(['t.created_at', 't.total', 't.refunded_total']).execute();
}

/** The store's sold sales within [from, to) refunded in part: how many, and the cents given back. */
export function partlyRefunded(db: Kysely<Database>, at: { orgId: string; storeId: string }, from: number, to: number) {
  return storeSoldSales(db, at, from, to)
    .where('t.part_refunds', '>', 0)
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('t.refunded_total').as('amount')])
    .executeTakeFirstOrThrow();
}

/** What a transaction search matches: its receipt number, the till's receipt number or the payment reference (any case). */
export function transactionMatches(dialect: DialectName, text: string, alias = ''): RawBuilder<SqlBool> {
  const col = (c: string) => (alias ? `${alias}.${c}` : c);
  return sql<SqlBool>`(${containsText(dialect, col('receipt_number'), text)} or ${containsText(dialect, col('client_receipt_number'), text)} or ${containsText(dialect, col('payment_reference'), text)})`;
}

/**
 * The sold sales' money per method, part by part (issue 51: 5,000 cash + 7,500 M-Pesa is 5,000 and
 * 7,500), less what refunds of part gave back per method (`refund_parts`).
 */
export async function soldParts(db: Kysely<Database>, store: { orgId: string; storeId: string }, from: number, to: number) {
  const [paid, back] = await Promise.all([
    storeSoldSales(db, store, from, to)
      .innerJoin('transaction_payments as tp', (j) => j.onRef('tp.org_id', '=', 't.org_id').onRef('tp.transaction_id', '=', 't.id'))
      .select((eb) => ['tp.method as method', eb.fn.sum<number>('tp.amount').as('amount')])
      .groupBy('tp.method')
      .execute(),
    storeSoldSales(db, store, from, to)
      .where('t.part_refunds', '>', 0)
      .innerJoin('refunds as r', (j) => j.onRef('r.org_id', '=', 't.org_id').onRef('r.transaction_id', '=', 't.id'))
      .innerJoin('refund_parts as rp', (j) => j.onRef('rp.org_id', '=', 'r.org_id').onRef('rp.refund_id', '=', 'r.id'))
      .select((eb) => ['rp.method as method', eb.fn.sum<number>('rp.amount').as('amount')])
      .groupBy('rp.method')
      .execute(),
  ]);
  const out = new Map(paid.map((p) => [p.method, Number(p.amount)]));
  for (const b of back) out.set(b.method, (out.get(b.method) ?? 0) - Number(b.amount));
  return [...out].map(([method, amount]) => ({ method, amount }));
}

import { fromBasisPoints, fromCents, newId, SoldStatus, toReceiptLine } from '@duka/shared';
import type { Reversal, Transaction, TransactionFiscal } from '@duka/shared';
import { fiscalByTransaction } from '../fiscal/fiscal.exports.js';
import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { containsText, type DialectName } from '../../db/dialect.js';
import type { Database } from '../../db/database.js';
import { iso, isoOrNull } from '../../lib/clock.js';
import type { TransactionLineBatchRow } from '../../db/tables/batches.table.js';
import type { TransactionLineRow, TransactionRow } from '../../db/tables/pos.table.js';
import { groupBy } from '../../lib/group-by.js';

/** `batches`: the sale's lot allocations (a sale has one line per product, so they go by product). */
export function toTransaction(
  row: TransactionRow,
  lines: TransactionLineRow[],
  batches: TransactionLineBatchRow[] = [],
  fiscal: TransactionFiscal | null = null,
): Transaction {
  return {
    id: row.id,
    number: row.number,
    receipt_number: row.receipt_number,
    client_receipt_number: row.client_receipt_number,
    status: row.status,
    payment_method: row.payment_method,
    payment_reference: row.payment_reference,
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
    refund_reason: row.refund_reason,
    refunded_at: isoOrNull(row.refunded_at),
    void_reason: row.void_reason,
    voided_at: isoOrNull(row.voided_at),
    created_at: iso(row.created_at),
    lines: lines.map((l) =>
      toReceiptLine(
        l,
        batches
          .filter((b) => b.product_id === l.product_id)
          .map((b) => ({ batch_id: b.batch_id, lot_number: b.lot_number, expiry_date: b.expiry_date, qty: b.qty })),
      ),
    ),
    fiscal,
  };
}

/** By primary key alone, so stale planner statistics cannot send it through a store's index (test/platform/planner-stats.test.ts). */
export const storeTransactionQuery = (db: Kysely<Database>, id: string) => db.selectFrom('transactions').selectAll().where('id', '=', id);

/** A transaction of the store, or undefined (another store's or organisation's id included). */
export async function findStoreTransaction(db: Kysely<Database>, storeId: string, id: string) {
  const row = await storeTransactionQuery(db, id).executeTakeFirst();
  return row?.store_id === storeId ? row : undefined;
}

/** Rows with their lines and the lines' lots, in the order given. */
export async function withLines(db: Kysely<Database>, rows: TransactionRow[]): Promise<Transaction[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [lines, lots, fiscal] = await Promise.all([
    db.selectFrom('transaction_lines').selectAll().where('transaction_id', 'in', ids).orderBy('id').execute(),
    db.selectFrom('transaction_line_batches').selectAll().where('transaction_id', 'in', ids).orderBy('id').execute(),
    fiscalByTransaction(db, rows),
  ]);
  const byTx = groupBy(lines, (l) => l.transaction_id);
  const lotsByTx = groupBy(lots, (l) => l.transaction_id);
  return rows.map((r) => toTransaction(r, byTx.get(r.id) ?? [], lotsByTx.get(r.id), fiscal.get(r.id) ?? null));
}

/**
 * Claims a sale's refund or void: its status and who, when and why, only while it is still sold.
 * Undefined when it is not (a concurrent refund or void claimed it first).
 */
export function claimReversal(db: Kysely<Database>, saleId: string, move: Reversal, by: { reason: string; now: number; userId: string }) {
  const { reason, now, userId } = by;
  return db
    .updateTable('transactions')
    .set(
      move === 'refund'
        ? { status: 'refunded', refund_reason: reason, refunded_at: now, refunded_by: userId, updated_at: now }
        : { status: 'void', void_reason: reason, voided_at: now, voided_by: userId, updated_at: now },
    )
    .where('id', '=', saleId)
    .where('status', 'in', SoldStatus.options)
    .returningAll()
    .executeTakeFirst();
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
export function mainBatchesOf(db: Kysely<Database>, storeId: string, productIds: string[]) {
  return db
    .selectFrom('batches')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('product_id', 'in', productIds)
    .where('source_batch_id', 'is', null)
    .orderBy('id')
    .execute();
}

/** Units sold (paid and credit sales) by the store within [from, to). */
export function unitsSold(db: Kysely<Database>, storeId: string, from: number, to: number) {
  return db
    .selectFrom('transaction_lines as l')
    .innerJoin('transactions as t', 't.id', 'l.transaction_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('l.qty'), eb.lit(0)).as('qty'))
    .where('t.store_id', '=', storeId)
    .where('t.created_at', '>=', from)
    .where('t.created_at', '<', to)
    .where('t.status', 'in', SoldStatus.options)
    .executeTakeFirstOrThrow();
}

/** When each sale (paid or credit) of the store within [from, to) was made, and its total. */
export function salesBetween(db: Kysely<Database>, storeId: string, from: number, to: number) {
  return db
    .selectFrom('transactions')
    .select(['created_at', 'total'])
    .where('store_id', '=', storeId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('status', 'in', SoldStatus.options)
    .execute();
}

/** What a transaction search matches: its receipt number, the till's receipt number or the payment reference (any case). */
export function transactionMatches(dialect: DialectName, text: string, alias = ''): RawBuilder<SqlBool> {
  const col = (c: string) => (alias ? `${alias}.${c}` : c);
  return sql<SqlBool>`(${containsText(dialect, col('receipt_number'), text)} or ${containsText(dialect, col('client_receipt_number'), text)} or ${containsText(dialect, col('payment_reference'), text)})`;
}

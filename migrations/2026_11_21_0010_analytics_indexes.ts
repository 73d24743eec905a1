/**
 * Indexes for owner analytics: the sales ledger read by organisation and time with the aggregated
 * columns in the index (an index-only range scan), the lines of a sale with everything profit and
 * product figures need (replacing the plain transaction_id index), refunds by when they were made,
 * and credit payments by organisation and time. Frozen.
 */
import type { Kysely } from 'kysely';
import { index } from './_helpers.js';

const LEDGER = ['org_id', 'created_at', 'status', 'payment_method', 'total', 'tax', 'discount', 'store_id', 'cashier_id'];
const LINES = ['transaction_id', 'product_id', 'qty', 'line_total', 'discount', 'tax', 'cost_price'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('ix__transactions__analytics').on('transactions').columns(LEDGER).execute();
  await db.schema
    .createIndex('ix__transactions__org_id_refunded_at')
    .on('transactions')
    .columns(['org_id', 'refunded_at'])
    .where('refunded_at', 'is not', null)
    .execute();
  await db.schema.createIndex('ix__transaction_lines__analytics').on('transaction_lines').columns(LINES).execute();
  await db.schema.dropIndex('ix__transaction_lines__transaction_id').execute();
  await index(db, 'credit_payments', ['org_id', 'created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ix__credit_payments__org_id_created_at').execute();
  await index(db, 'transaction_lines', ['transaction_id']);
  await db.schema.dropIndex('ix__transaction_lines__analytics').execute();
  await db.schema.dropIndex('ix__transactions__org_id_refunded_at').execute();
  await db.schema.dropIndex('ix__transactions__analytics').execute();
}

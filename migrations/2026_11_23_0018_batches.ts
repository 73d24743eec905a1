/**
 * Batches (issue 14): units of a product in one store from one lot, with expiry and status; the
 * append-only movement ledger every batch change writes (the controlled-drug and disposal registers
 * are read from it); the lots each sale line took; recalls; and lot and expiry on delivery lines.
 *
 * A store holds one main batch per product and lot (`source_batch_id` null). Refunded units wait
 * in a quarantine row of their own that points at the batch they return to on release. Dates are
 * `YYYY-MM-DD` text (the organisation's calendar), times epoch ms, money cents. Frozen.
 */
import type { Kysely } from 'kysely';
import { index, sql, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('product_id', t.id, (c) => c.notNull().references('products.id'))
    .addColumn('lot_number', t.text, (c) => c.notNull())
    .addColumn('expiry_date', t.text, (c) => c.notNull())
    .addColumn('qty_on_hand', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('cost_price', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('supplier_id', t.id)
    .addColumn('delivery_id', t.id)
    .addColumn('source_batch_id', t.id)
    .addColumn('transaction_id', t.id)
    .addColumn('received_at', t.big, (c) => c.notNull())
    .addColumn('expiry_alerted_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('uq__batches__store_product_lot')
    .on('batches')
    .columns(['store_id', 'product_id', 'lot_number'])
    .unique()
    .where(sql.ref('source_batch_id'), 'is', null)
    .execute();
  await index(db, 'batches', ['store_id', 'product_id', 'status']);
  await index(db, 'batches', ['org_id', 'product_id', 'lot_number']);
  await index(db, 'batches', ['store_id', 'status', 'expiry_date']);
  await index(db, 'batches', ['source_batch_id']);

  await db.schema
    .createTable('batch_movements')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('batch_id', t.id, (c) => c.notNull().references('batches.id'))
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('qty', t.int, (c) => c.notNull())
    .addColumn('qty_after', t.int, (c) => c.notNull())
    .addColumn('stock_change', t.int, (c) => c.notNull())
    .addColumn('status_from', t.text)
    .addColumn('status_to', t.text)
    .addColumn('transaction_id', t.id)
    .addColumn('delivery_id', t.id)
    .addColumn('recall_id', t.id)
    .addColumn('reason', t.text)
    .addColumn('method', t.text)
    .addColumn('witness', t.text)
    .addColumn('note', t.text)
    .addColumn('details', t.text)
    .addColumn('user_id', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'batch_movements', ['store_id', 'product_id', 'created_at']);
  await index(db, 'batch_movements', ['batch_id', 'created_at']);
  await index(db, 'batch_movements', ['store_id', 'kind', 'created_at']);

  await db.schema
    .createTable('transaction_line_batches')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('transaction_id', t.id, (c) => c.notNull().references('transactions.id'))
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('batch_id', t.id, (c) => c.notNull().references('batches.id'))
    .addColumn('lot_number', t.text, (c) => c.notNull())
    .addColumn('expiry_date', t.text, (c) => c.notNull())
    .addColumn('qty', t.int, (c) => c.notNull())
    .execute();
  await index(db, 'transaction_line_batches', ['transaction_id']);
  await index(db, 'transaction_line_batches', ['batch_id']);

  await db.schema
    .createTable('recalls')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('product_id', t.id, (c) => c.notNull().references('products.id'))
    .addColumn('lot_number', t.text, (c) => c.notNull())
    .addColumn('reason', t.text, (c) => c.notNull())
    .addColumn('batch_count', t.int, (c) => c.notNull())
    .addColumn('units', t.int, (c) => c.notNull())
    .addColumn('user_id', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'recalls', ['org_id', 'created_at']);

  await db.schema.alterTable('delivery_lines').addColumn('lot_number', t.text).execute();
  await db.schema.alterTable('delivery_lines').addColumn('expiry_date', t.text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('delivery_lines').dropColumn('expiry_date').execute();
  await db.schema.alterTable('delivery_lines').dropColumn('lot_number').execute();
  await db.schema.dropTable('recalls').execute();
  await db.schema.dropTable('transaction_line_batches').execute();
  await db.schema.dropTable('batch_movements').execute();
  await db.schema.dropTable('batches').execute();
}

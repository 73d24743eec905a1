/**
 * Catalogue (organisation-wide), stock (per store), price history, stock adjustments, and the
 * sales ledger that store KPIs, staff statistics and the point of sale read. Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, index, t, uniqueIndex } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('categories')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('description', t.text)
    .addColumn('sort_order', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', t.flag, flag(1))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'categories', ['org_id', 'name']);

  await db.schema
    .createTable('products')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('category_id', t.id, (c) => c.references('categories.id'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('sku', t.text)
    .addColumn('barcode', t.text)
    .addColumn('cost_price', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('selling_price', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('wholesale_price', t.big)
    .addColumn('wholesale_min_qty', t.int)
    .addColumn('tax_rate', t.int, (c) => c.notNull().defaultTo(1800))
    .addColumn('reorder_point', t.int, (c) => c.notNull().defaultTo(5))
    .addColumn('image', t.text)
    .addColumn('description', t.text)
    .addColumn('is_service', t.flag, flag(0))
    .addColumn('is_active', t.flag, flag(1))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'products', ['org_id', 'sku']);
  await uniqueIndex(db, 'products', ['org_id', 'barcode']);
  await index(db, 'products', ['org_id', 'name']);
  await index(db, 'products', ['category_id']);

  await db.schema
    .createTable('product_stock')
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('product_id', t.id, (c) => c.notNull().references('products.id'))
    .addColumn('qty', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__product_stock', ['store_id', 'product_id'])
    .execute();
  await index(db, 'product_stock', ['product_id']);

  await db.schema
    .createTable('product_prices')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull().references('products.id'))
    .addColumn('selling_price', t.big, (c) => c.notNull())
    .addColumn('wholesale_price', t.big)
    .addColumn('cost_price', t.big, (c) => c.notNull())
    .addColumn('tax_rate', t.int, (c) => c.notNull())
    .addColumn('effective_from', t.big, (c) => c.notNull())
    .addColumn('changed_by', t.id)
    .execute();
  await index(db, 'product_prices', ['product_id', 'effective_from']);

  await db.schema
    .createTable('stock_adjustments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('product_id', t.id, (c) => c.notNull().references('products.id'))
    .addColumn('qty_change', t.int, (c) => c.notNull())
    .addColumn('qty_after', t.int, (c) => c.notNull())
    .addColumn('reason', t.text, (c) => c.notNull())
    .addColumn('note', t.text)
    .addColumn('adjusted_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'stock_adjustments', ['product_id', 'store_id', 'created_at']);

  await db.schema
    .createTable('transactions')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('number', t.big, (c) => c.notNull())
    .addColumn('receipt_number', t.text, (c) => c.notNull())
    .addColumn('client_receipt_number', t.text)
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('payment_method', t.text, (c) => c.notNull())
    .addColumn('payment_reference', t.text)
    .addColumn('price_mode', t.text, (c) => c.notNull().defaultTo('retail'))
    .addColumn('subtotal', t.big, (c) => c.notNull())
    .addColumn('discount_pct', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('discount', t.big, (c) => c.notNull())
    .addColumn('tax', t.big, (c) => c.notNull())
    .addColumn('total', t.big, (c) => c.notNull())
    .addColumn('customer_id', t.id)
    .addColumn('customer_name', t.text)
    .addColumn('customer_phone', t.text)
    .addColumn('till_number', t.text)
    .addColumn('notes', t.text)
    .addColumn('cashier_id', t.id, (c) => c.references('users.id'))
    .addColumn('source', t.text, (c) => c.notNull().defaultTo('online'))
    .addColumn('device_id', t.id)
    .addColumn('client_created_at', t.big)
    .addColumn('refund_reason', t.text)
    .addColumn('refunded_at', t.big)
    .addColumn('refunded_by', t.id)
    .addColumn('void_reason', t.text)
    .addColumn('voided_at', t.big)
    .addColumn('voided_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'transactions', ['store_id', 'number']);
  await index(db, 'transactions', ['org_id', 'store_id', 'created_at']);
  await index(db, 'transactions', ['cashier_id', 'created_at']);
  await index(db, 'transactions', ['customer_id']);

  await db.schema
    .createTable('transaction_lines')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('transaction_id', t.id, (c) => c.notNull().references('transactions.id'))
    .addColumn('product_id', t.id, (c) => c.notNull().references('products.id'))
    .addColumn('product_name', t.text, (c) => c.notNull())
    .addColumn('qty', t.int, (c) => c.notNull())
    .addColumn('unit_price', t.big, (c) => c.notNull())
    .addColumn('line_total', t.big, (c) => c.notNull())
    .addColumn('discount', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('tax_rate', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('tax', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('cost_price', t.big, (c) => c.notNull().defaultTo(0))
    .execute();
  await index(db, 'transaction_lines', ['transaction_id']);
  await index(db, 'transaction_lines', ['product_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'transaction_lines',
    'transactions',
    'stock_adjustments',
    'product_prices',
    'product_stock',
    'products',
    'categories',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

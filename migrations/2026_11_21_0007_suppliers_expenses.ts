/**
 * Suppliers (organisation-wide, soft-deleted), their deliveries and delivery lines (per store),
 * payments to suppliers with how each was spread over deliveries, and store expenses (hard
 * delete). Money in cents, times in epoch ms, flags 0/1. Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('suppliers')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('category', t.text)
    .addColumn('rep', t.text)
    .addColumn('phone', t.text)
    .addColumn('email', t.text)
    .addColumn('address', t.text)
    .addColumn('payment_terms', t.int)
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('active'))
    .addColumn('notes', t.text)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addColumn('deleted_at', t.big)
    .execute();
  await index(db, 'suppliers', ['org_id', 'name']);
  await index(db, 'suppliers', ['org_id', 'status']);

  await db.schema
    .createTable('deliveries')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('supplier_id', t.id, (c) => c.notNull().references('suppliers.id'))
    .addColumn('invoice_number', t.text)
    .addColumn('delivery_date', t.big, (c) => c.notNull())
    .addColumn('items_count', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('total_value', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('expected'))
    .addColumn('is_paid', t.flag, flag(0))
    .addColumn('paid_amount', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('notes', t.text)
    .addColumn('stock_added_at', t.big)
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addColumn('deleted_at', t.big)
    .execute();
  await index(db, 'deliveries', ['store_id', 'delivery_date']);
  await index(db, 'deliveries', ['supplier_id', 'delivery_date']);
  await index(db, 'deliveries', ['org_id', 'delivery_date']);
  await index(db, 'deliveries', ['store_id', 'is_paid']);

  await db.schema
    .createTable('delivery_lines')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('delivery_id', t.id, (c) => c.notNull().references('deliveries.id'))
    // No foreign key: a product with only expected deliveries may still be deleted (its lines then say so).
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('qty', t.int, (c) => c.notNull())
    .addColumn('unit_cost', t.big, (c) => c.notNull())
    .addColumn('update_cost', t.flag, flag(0))
    .execute();
  await index(db, 'delivery_lines', ['delivery_id']);
  await index(db, 'delivery_lines', ['product_id']);

  await db.schema
    .createTable('supplier_payments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('supplier_id', t.id, (c) => c.notNull().references('suppliers.id'))
    .addColumn('delivery_id', t.id, (c) => c.references('deliveries.id'))
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('payment_method', t.text, (c) => c.notNull())
    .addColumn('reference', t.text)
    .addColumn('notes', t.text)
    .addColumn('paid_at', t.big, (c) => c.notNull())
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'supplier_payments', ['supplier_id', 'paid_at']);
  await index(db, 'supplier_payments', ['org_id', 'paid_at']);
  await index(db, 'supplier_payments', ['delivery_id']);

  await db.schema
    .createTable('supplier_payment_allocations')
    .addColumn('payment_id', t.id, (c) => c.notNull().references('supplier_payments.id'))
    .addColumn('delivery_id', t.id, (c) => c.notNull().references('deliveries.id'))
    .addColumn('amount', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__supplier_payment_allocations', ['payment_id', 'delivery_id'])
    .execute();
  await index(db, 'supplier_payment_allocations', ['delivery_id']);

  await db.schema
    .createTable('expenses')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('category', t.text, (c) => c.notNull())
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('payment_method', t.text, (c) => c.notNull())
    .addColumn('payment_reference', t.text)
    .addColumn('notes', t.text)
    .addColumn('receipt_url', t.text)
    .addColumn('spent_at', t.big, (c) => c.notNull())
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'expenses', ['store_id', 'spent_at']);
  await index(db, 'expenses', ['store_id', 'category', 'spent_at']);
  await index(db, 'expenses', ['store_id', 'amount']);
  await index(db, 'expenses', ['org_id', 'spent_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['expenses', 'supplier_payment_allocations', 'supplier_payments', 'delivery_lines', 'deliveries', 'suppliers']) {
    await db.schema.dropTable(table).execute();
  }
}

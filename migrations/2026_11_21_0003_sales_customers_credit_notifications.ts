/**
 * Customers and credit tabs, notifications, idempotency keys for money-creating POSTs, the
 * transactional event outbox, and pharmacy quarantine of returned medicine. Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, index, t, uniqueIndex } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('phone', t.text)
    .addColumn('email', t.text)
    .addColumn('segment', t.text, (c) => c.notNull().defaultTo('New'))
    .addColumn('credit_limit', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('notes', t.text)
    .addColumn('is_active', t.flag, flag(1))
    .addColumn('total_spend', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('visit_count', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('first_purchase_at', t.big)
    .addColumn('last_purchase_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'customers', ['org_id', 'phone']);
  await index(db, 'customers', ['org_id', 'name']);

  await db.schema
    .createTable('credit_tabs')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('customer_id', t.id, (c) => c.notNull().references('customers.id'))
    .addColumn('transaction_id', t.id, (c) => c.notNull().references('transactions.id'))
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('paid_amount', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('written_off_amount', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('open'))
    .addColumn('due_date', t.text, (c) => c.notNull())
    .addColumn('write_off_reason', t.text)
    .addColumn('settled_at', t.big)
    .addColumn('written_off_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'credit_tabs', ['transaction_id']);
  await index(db, 'credit_tabs', ['customer_id', 'created_at']);
  await index(db, 'credit_tabs', ['org_id', 'status']);

  await db.schema
    .createTable('credit_payments')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('customer_id', t.id, (c) => c.notNull().references('customers.id'))
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('method', t.text, (c) => c.notNull())
    .addColumn('reference', t.text)
    .addColumn('note', t.text)
    .addColumn('received_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'credit_payments', ['customer_id', 'created_at']);

  await db.schema
    .createTable('credit_allocations')
    .addColumn('payment_id', t.id, (c) => c.notNull().references('credit_payments.id'))
    .addColumn('tab_id', t.id, (c) => c.notNull().references('credit_tabs.id'))
    .addColumn('amount', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__credit_allocations', ['payment_id', 'tab_id'])
    .execute();
  await index(db, 'credit_allocations', ['tab_id']);

  await db.schema
    .createTable('credit_messages')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('customer_id', t.id, (c) => c.notNull().references('customers.id'))
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('body', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('sent_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'credit_messages', ['customer_id', 'created_at']);

  await db.schema
    .createTable('credit_notes')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('customer_id', t.id, (c) => c.notNull().references('customers.id'))
    .addColumn('body', t.text, (c) => c.notNull())
    .addColumn('author_id', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'credit_notes', ['customer_id', 'created_at']);

  await db.schema
    .createTable('notifications')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('category', t.text, (c) => c.notNull())
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('body', t.text, (c) => c.notNull().defaultTo(''))
    .addColumn('link', t.text)
    .addColumn('is_read', t.flag, flag(0))
    .addColumn('read_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'notifications', ['store_id', 'is_read', 'created_at']);

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', t.id, (c) => c.notNull())
    .addColumn('key', t.text, (c) => c.notNull())
    .addColumn('route', t.text, (c) => c.notNull())
    .addColumn('request_hash', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('response_status', t.int)
    .addColumn('response_body', t.text)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__idempotency_keys', ['user_id', 'key'])
    .execute();
  await index(db, 'idempotency_keys', ['created_at']);

  await db.schema
    .createTable('events')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id)
    .addColumn('type', t.text, (c) => c.notNull())
    .addColumn('payload', t.text, (c) => c.notNull())
    .addColumn('occurred_at', t.big, (c) => c.notNull())
    .addColumn('delivered', t.flag, flag(0))
    .execute();
  await index(db, 'events', ['delivered', 'occurred_at']);

  await db.schema
    .createTable('event_deliveries')
    .addColumn('event_id', t.id, (c) => c.notNull().references('events.id'))
    .addColumn('subscriber', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', t.text)
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__event_deliveries', ['event_id', 'subscriber'])
    .execute();

  await db.schema
    .createTable('stock_quarantine')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull().references('stores.id'))
    .addColumn('product_id', t.id, (c) => c.notNull().references('products.id'))
    .addColumn('transaction_id', t.id, (c) => c.notNull().references('transactions.id'))
    .addColumn('qty', t.int, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('held'))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('resolved_at', t.big)
    .execute();
  await index(db, 'stock_quarantine', ['store_id', 'status']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'stock_quarantine',
    'event_deliveries',
    'events',
    'idempotency_keys',
    'notifications',
    'credit_notes',
    'credit_messages',
    'credit_allocations',
    'credit_payments',
    'credit_tabs',
    'customers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

/**
 * Daily rollups for owner analytics: sales per (store, local day, payment method, cashier), sold
 * lines per (store, local day, product), and per organisation the change-log version they include
 * and the time zone their days were cut in. Filled and kept current at read time from the change
 * log (server/src/modules/analytics/services/rollups.ts). Frozen.
 */
import type { Kysely } from 'kysely';
import { t } from './_helpers.js';

const money = (c: { notNull(): any; defaultTo(v: number): any }) => c.notNull().defaultTo(0);

export async function up(db: Kysely<any>): Promise<void> {
  let daily = db.schema
    .createTable('sales_daily')
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('day', t.text, (c) => c.notNull())
    .addColumn('payment_method', t.text, (c) => c.notNull())
    .addColumn('cashier_id', t.id, (c) => c.notNull());
  for (const col of [
    'sales_count',
    'revenue',
    'vat',
    'discount',
    'items',
    'net',
    'cost',
    'refund_count',
    'refund_total',
    'void_count',
    'void_total',
  ]) {
    daily = daily.addColumn(col, t.big, money);
  }
  await daily.addPrimaryKeyConstraint('pk__sales_daily', ['store_id', 'day', 'payment_method', 'cashier_id']).execute();
  await db.schema.createIndex('ix__sales_daily__org_id_day').on('sales_daily').columns(['org_id', 'day']).execute();

  let products = db.schema
    .createTable('sales_daily_products')
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('day', t.text, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull());
  for (const col of ['qty', 'revenue', 'net', 'cost']) products = products.addColumn(col, t.big, money);
  await products.addPrimaryKeyConstraint('pk__sales_daily_products', ['store_id', 'day', 'product_id']).execute();
  // Organisation-wide reads group by product in index order, every figure in the index.
  await db.schema
    .createIndex('ix__sales_daily_products__analytics')
    .on('sales_daily_products')
    .columns(['org_id', 'product_id', 'day', 'qty', 'revenue', 'net', 'cost'])
    .execute();

  await db.schema
    .createTable('analytics_rollup_state')
    .addColumn('org_id', t.id, (c) => c.primaryKey())
    .addColumn('version', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('time_zone', t.text)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_rollup_state').execute();
  await db.schema.dropTable('sales_daily_products').execute();
  await db.schema.dropTable('sales_daily').execute();
}

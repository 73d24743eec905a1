/**
 * Issue 52, purchase orders: an order to a supplier for the active store (`purchase_orders`), its
 * lines (`purchase_order_lines`: what was ordered and what has arrived, both in counts of the
 * product, with the expected cost) and the deliveries that received it
 * (`purchase_order_deliveries`, one row per delivery). docs/back-office.md "Purchase orders".
 * Tenant layout (issue 36): `org_id` leads every key, each foreign key names its parent by `(org_id, id)`.
 *
 * New tables only: no existing row changes. `down` drops the three. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('purchase_orders')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('supplier_id', t.id, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('note', t.text)
    .addColumn('total_value', t.big, (c) => c.notNull())
    .addColumn('outbox_id', t.id)
    .addColumn('sent_to', t.text)
    .addColumn('sent_at', t.big)
    .addColumn('cancelled_at', t.big)
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__purchase_orders', ['org_id', 'id'])
    .execute();
  await index(db, 'purchase_orders', ['org_id', 'store_id', 'created_at']);
  await db.schema
    .createTable('purchase_order_lines')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('purchase_order_id', t.id, (c) => c.notNull())
    .addColumn('position', t.int, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('pack_id', t.id)
    .addColumn('pack_units', t.int)
    .addColumn('qty', t.int, (c) => c.notNull())
    .addColumn('unit_cost', t.big, (c) => c.notNull())
    .addColumn('received', t.int, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('pk__purchase_order_lines', ['org_id', 'id'])
    .execute();
  await index(db, 'purchase_order_lines', ['org_id', 'purchase_order_id']);
  await db.schema
    .createTable('purchase_order_deliveries')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('purchase_order_id', t.id, (c) => c.notNull())
    .addColumn('delivery_id', t.id, (c) => c.notNull())
    .addColumn('received_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__purchase_order_deliveries', ['org_id', 'purchase_order_id', 'delivery_id'])
    .execute();
  await addForeignKey(
    db,
    'purchase_order_lines',
    'fk__purchase_order_lines__purchase_order_id',
    ['org_id', 'purchase_order_id'],
    'purchase_orders',
    ['org_id', 'id'],
  );
  await addForeignKey(
    db,
    'purchase_order_deliveries',
    'fk__purchase_order_deliveries__purchase_order_id',
    ['org_id', 'purchase_order_id'],
    'purchase_orders',
    ['org_id', 'id'],
  );
  await addForeignKey(
    db,
    'purchase_order_deliveries',
    'fk__purchase_order_deliveries__delivery_id',
    ['org_id', 'delivery_id'],
    'deliveries',
    ['org_id', 'id'],
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('purchase_order_deliveries').ifExists().execute();
  await db.schema.dropTable('purchase_order_lines').ifExists().execute();
  await db.schema.dropTable('purchase_orders').ifExists().execute();
}

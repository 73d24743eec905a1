/**
 * Issue 52, stock-takes: a count of a store's shelves (`stock_takes`), one line per product in its
 * scope (`stock_take_lines`: the expected level, in counts, taken when the product's first count
 * arrives; the counts summed; the change applied and the cost it was valued at) and every count a
 * counter sent (`stock_take_counts`, keyed by the id the till made, so a replay is recognised).
 * docs/inventory.md "Stock-takes". Tenant layout (issue 36): `org_id` leads every key, each
 * foreign key names its parent by `(org_id, id)`.
 *
 * New tables only: no existing row changes. `down` drops the three. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stock_takes')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('scope', t.text, (c) => c.notNull())
    .addColumn('category_id', t.id)
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('uncounted', t.text)
    .addColumn('note', t.text)
    .addColumn('opened_by', t.id)
    .addColumn('opened_at', t.big, (c) => c.notNull())
    .addColumn('closed_by', t.id)
    .addColumn('closed_at', t.big)
    .addPrimaryKeyConstraint('pk__stock_takes', ['org_id', 'id'])
    .execute();
  await index(db, 'stock_takes', ['org_id', 'store_id', 'opened_at']);
  await db.schema
    .createTable('stock_take_lines')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('stock_take_id', t.id, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('expected', t.int)
    .addColumn('counted', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('first_counted_at', t.big)
    .addColumn('change', t.int)
    .addColumn('cost_price', t.big)
    .addPrimaryKeyConstraint('pk__stock_take_lines', ['org_id', 'stock_take_id', 'product_id'])
    .execute();
  await db.schema
    .createTable('stock_take_counts')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('stock_take_id', t.id, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('qty', t.int, (c) => c.notNull())
    .addColumn('counted_at', t.big, (c) => c.notNull())
    .addColumn('device_id', t.text)
    .addColumn('counted_by', t.id)
    .addColumn('received_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__stock_take_counts', ['org_id', 'id'])
    .execute();
  await index(db, 'stock_take_counts', ['org_id', 'stock_take_id']);
  await addForeignKey(db, 'stock_take_lines', 'fk__stock_take_lines__stock_take_id', ['org_id', 'stock_take_id'], 'stock_takes', [
    'org_id',
    'id',
  ]);
  await addForeignKey(db, 'stock_take_counts', 'fk__stock_take_counts__stock_take_id', ['org_id', 'stock_take_id'], 'stock_takes', [
    'org_id',
    'id',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stock_take_counts').ifExists().execute();
  await db.schema.dropTable('stock_take_lines').ifExists().execute();
  await db.schema.dropTable('stock_takes').ifExists().execute();
}

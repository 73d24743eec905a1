/**
 * Issue 54, stock transfers between an organisation's stores: one row per transfer, its lines as
 * JSON (`[{ product_id, name, unit, qty }]`, qty in counts); the stock itself moves through
 * product_stock and each side is a stock adjustment (`transfer_out` / `transfer_in`), so nothing
 * else reads this table but the transfers list. docs/inventory.md "Transfers between stores".
 * Tenant layout (issue 36): `org_id` leads every key. A new table only; `down` drops it. Frozen.
 */
import type { Kysely } from 'kysely';
import { index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stock_transfers')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('from_store_id', t.id, (c) => c.notNull())
    .addColumn('to_store_id', t.id, (c) => c.notNull())
    .addColumn('lines', t.text, (c) => c.notNull())
    .addColumn('note', t.text)
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__stock_transfers', ['org_id', 'id'])
    .execute();
  await index(db, 'stock_transfers', ['org_id', 'from_store_id', 'created_at']);
  await index(db, 'stock_transfers', ['org_id', 'to_store_id', 'created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stock_transfers').ifExists().execute();
}

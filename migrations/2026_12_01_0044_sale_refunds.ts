/**
 * Issue 51, a part of a sale refunded: one `refunds` row per refund of part of a sale (and the one
 * that completes such a sale), its lines in `refund_lines` (the sold line, the counts back, the
 * cents and VAT share given back) and the money per tender method in `refund_parts`. A sale refunded
 * whole in one go writes none of them: it is recorded on the sale, as before (docs/pos.md
 * "Refunding part of a sale"). Tenant layout (issue 36): `org_id` leads every key, each foreign key
 * names its parent by `(org_id, id)`.
 *
 * No backfill: every existing refund was of a whole sale and stays recorded as it was. `down`
 * drops the three tables; nothing else was changed. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('refunds')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('transaction_id', t.id, (c) => c.notNull())
    .addColumn('shift_id', t.id)
    .addColumn('reason', t.text, (c) => c.notNull())
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__refunds', ['org_id', 'id'])
    .execute();
  await index(db, 'refunds', ['org_id', 'transaction_id']);
  await index(db, 'refunds', ['org_id', 'shift_id']);
  await db.schema
    .createTable('refund_lines')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('refund_id', t.id, (c) => c.notNull())
    .addColumn('line_id', t.id, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('qty', t.int, (c) => c.notNull())
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('tax', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__refund_lines', ['org_id', 'refund_id', 'line_id'])
    .execute();
  await db.schema
    .createTable('refund_parts')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('refund_id', t.id, (c) => c.notNull())
    .addColumn('method', t.text, (c) => c.notNull())
    .addColumn('amount', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__refund_parts', ['org_id', 'refund_id', 'method'])
    .execute();
  await addForeignKey(db, 'refunds', 'fk__refunds__transaction_id', ['org_id', 'transaction_id'], 'transactions', ['org_id', 'id']);
  await addForeignKey(db, 'refund_lines', 'fk__refund_lines__refund_id', ['org_id', 'refund_id'], 'refunds', ['org_id', 'id']);
  await addForeignKey(db, 'refund_parts', 'fk__refund_parts__refund_id', ['org_id', 'refund_id'], 'refunds', ['org_id', 'id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refund_parts').ifExists().execute();
  await db.schema.dropTable('refund_lines').ifExists().execute();
  await db.schema.dropTable('refunds').ifExists().execute();
}

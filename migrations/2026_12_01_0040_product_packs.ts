/**
 * Issue 51: packs. `product_packs` holds the packs a product is bought and sold in (a carton of 24;
 * a box of 100 tablets and a strip of 10): `units` in the product's counts, a barcode of its own and
 * a price of its own (cents), each optional. Keyed like every tenant table since 0031, `org_id`
 * first. A pack's barcode is its organisation's once among packs (`uq__product_packs__barcode`);
 * that it is no product's barcode either is the products service's check, in the same transaction.
 *
 * A sale line sold by the pack names it: `transaction_lines.pack_id`, `pack_name` as sold (a receipt
 * prints what was sold, whatever the pack is called later) and `pack_qty` (how many packs; the line's
 * `qty` stays its counts, so every reader of stock and sales sees what it did). Every existing line
 * was sold loose: all three stay null.
 *
 * A delivery line may come in packs: `delivery_lines.pack_id` and `pack_units` (the pack's counts
 * as the line was recorded, so a delivery returned takes out exactly what it added, whatever the
 * pack holds by then); its `qty` and `unit_cost` are then per pack. Existing lines: null. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, index, t, uniqueIndex } from './_helpers.js';

const LINE_COLUMNS = [
  ['pack_id', t.id],
  ['pack_name', t.text],
  ['pack_qty', t.int],
] as const;
const DELIVERY_COLUMNS = [
  ['pack_id', t.id],
  ['pack_units', t.int],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_packs')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('product_id', t.id, (c) => c.notNull())
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('units', t.int, (c) => c.notNull())
    .addColumn('barcode', t.text)
    .addColumn('selling_price', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__product_packs', ['org_id', 'id'])
    .execute();
  await index(db, 'product_packs', ['org_id', 'product_id']);
  await uniqueIndex(db, 'product_packs', ['org_id', 'barcode']);
  await addForeignKey(db, 'product_packs', 'fk__product_packs__product_id', ['org_id', 'product_id'], 'products', ['org_id', 'id']);

  for (const [column, type] of LINE_COLUMNS) await db.schema.alterTable('transaction_lines').addColumn(column, type).execute();
  for (const [column, type] of DELIVERY_COLUMNS) await db.schema.alterTable('delivery_lines').addColumn(column, type).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [column] of [...DELIVERY_COLUMNS].reverse()) await db.schema.alterTable('delivery_lines').dropColumn(column).execute();
  for (const [column] of [...LINE_COLUMNS].reverse()) await db.schema.alterTable('transaction_lines').dropColumn(column).execute();
  await db.schema.dropTable('product_packs').execute();
}

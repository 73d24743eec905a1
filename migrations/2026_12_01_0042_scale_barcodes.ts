/**
 * Issue 51: scale barcodes. `products.scale_code` is the item code a shop scale prints inside its
 * EAN-13 labels (digits, unique in the organisation: `uq__products__scale_code`, led by `org_id`
 * like every tenant key); `organisations.scale_barcodes` is the organisation's label layouts as
 * JSON (shared `ScaleBarcodeConfig`), null for one that never set them (answered as the default,
 * switched off). New columns only, both null on every existing row; `down` drops them. Frozen.
 */
import type { Kysely } from 'kysely';
import { t, uniqueIndex } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').addColumn('scale_code', t.text).execute();
  await uniqueIndex(db, 'products', ['org_id', 'scale_code']);
  await db.schema.alterTable('organisations').addColumn('scale_barcodes', t.text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('uq__products__scale_code').ifExists().execute();
  await db.schema.alterTable('products').dropColumn('scale_code').execute();
  await db.schema.alterTable('organisations').dropColumn('scale_barcodes').execute();
}

/**
 * Issue 51: a product's unit (`piece` by default, or kg, g, l, ml, m). Every quantity column of a
 * product holds integer counts of it (shared/src/inventory/units.ts): a piece is one count, a
 * measured unit a thousand. Every product so far is sold by the piece, so every existing quantity
 * already is its count: nothing is rewritten, and `down` only drops the column. Frozen.
 */
import type { Kysely } from 'kysely';
import { t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('unit', t.text, (c) => c.notNull().defaultTo('piece'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').dropColumn('unit').execute();
}

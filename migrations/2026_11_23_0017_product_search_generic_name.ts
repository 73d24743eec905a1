/**
 * Product search finds medicines by generic name too ("paracetamol" finds "Panadol 500"): the
 * products text index (0004) now covers `name`, `sku` and `generic_name`, existing rows included.
 * `generic_name` is null for anything that is not a medicine; both indexes take nulls as empty.
 * Frozen.
 */
import type { Kysely } from 'kysely';
import { replaceTextSearch } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await replaceTextSearch(db, 'products', ['name', 'sku'], ['name', 'sku', 'generic_name']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replaceTextSearch(db, 'products', ['name', 'sku', 'generic_name'], ['name', 'sku']);
}

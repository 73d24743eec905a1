/**
 * Issue 53: a product search of 1 or 2 letters or digits finds the products with a word (of the
 * name, SKU or generic name) that starts with them, from an index of words, instead of reading
 * every product for a substring no trigram index can take (docs/inventory.md "Product search").
 * `createWordSearch` (_helpers.ts): SQLite, an FTS5 table `products_words` kept in step by triggers;
 * PostgreSQL, a GIN index `ix__products__words` on the columns' words, which the partitioned-by-org
 * layout copies as it copies every index. Existing rows are indexed; `down` drops them. Frozen.
 */
import type { Kysely } from 'kysely';
import { createWordSearch, dropWordSearch } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await createWordSearch(db, 'products', ['name', 'sku', 'generic_name']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropWordSearch(db, 'products');
}

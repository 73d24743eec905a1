/** Index product names and SKUs for "contains" search (the till's product search). Frozen. */
import type { Kysely } from 'kysely';
import { createTextSearch, dropTextSearch } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await createTextSearch(db, 'products', ['name', 'sku']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTextSearch(db, 'products', ['name', 'sku']);
}

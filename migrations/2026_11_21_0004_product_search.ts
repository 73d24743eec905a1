/** Index product names and SKUs for "contains" search (the till's product search). Frozen. */
import type { Kysely } from 'kysely';
import { createTextSearch, dialectOf, sql } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await createTextSearch(db, 'products', ['name', 'sku']);
}

export async function down(db: Kysely<any>): Promise<void> {
  const sqlite = dialectOf(db) === 'sqlite';
  for (const stmt of sqlite
    ? ['drop trigger products_fts_ai', 'drop trigger products_fts_ad', 'drop trigger products_fts_au', 'drop table products_fts']
    : ['drop index if exists ix__products__name_trgm', 'drop index if exists ix__products__sku_trgm']) {
    await sql.raw(stmt).execute(db);
  }
}

/**
 * Issue 53: a product search of 1 or 2 letters or digits finds the products with a word (of the
 * name, SKU or generic name) that starts with them, from an index of words, instead of reading
 * every product for a substring no trigram index can take (docs/inventory.md "Searching products").
 * SQLite: an external-content FTS5 table `products_words` (unicode61 words, case folded, accents
 * kept, prefix indexes of 1 and 2 characters), kept in step by triggers as `products_fts` (0004) is,
 * keyed on rowid. PostgreSQL: a GIN index on the three columns' words (`to_tsvector('simple', …)`
 * of the text with `-./:@+` read as spaces, so that "SKU-4711" is the words "sku" and "4711" as in
 * SQLite, not "sku" and "-4711"; the expression `product-search.queries.ts` matches), which the partitioned-by-org layout copies
 * as it copies every index. Existing rows are indexed; `down` drops both. Re-runnable (a SQLite
 * migration is not one transaction). Frozen.
 */
import { type Kysely, sql } from 'kysely';
import { dialectOf } from './_helpers.js';

const COLUMNS = 'name, sku, generic_name';
const news = 'new.name, new.sku, new.generic_name';
const olds = 'old.name, old.sku, old.generic_name';

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql
      .raw(
        `create index if not exists ix__products__words on products using gin ` +
          `(to_tsvector('simple'::regconfig, translate(coalesce(name, '') || ' ' || coalesce(sku, '') || ' ' || coalesce(generic_name, ''), '-./:@+', '      ')))`,
      )
      .execute(db);
    return;
  }
  await down(db);
  const statements = [
    `create virtual table products_words using fts5(${COLUMNS}, content='products', content_rowid='rowid', ` +
      `tokenize='unicode61 remove_diacritics 0', prefix='1 2')`,
    `create trigger products_words_ai after insert on products begin insert into products_words(rowid, ${COLUMNS}) values (new.rowid, ${news}); end`,
    `create trigger products_words_ad after delete on products begin ` +
      `insert into products_words(products_words, rowid, ${COLUMNS}) values ('delete', old.rowid, ${olds}); end`,
    `create trigger products_words_au after update of ${COLUMNS} on products begin ` +
      `insert into products_words(products_words, rowid, ${COLUMNS}) values ('delete', old.rowid, ${olds}); ` +
      `insert into products_words(rowid, ${COLUMNS}) values (new.rowid, ${news}); end`,
    `insert into products_words(products_words) values ('rebuild')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const statements =
    dialectOf(db) === 'postgres'
      ? ['drop index if exists ix__products__words']
      : [
          'drop trigger if exists products_words_ai',
          'drop trigger if exists products_words_ad',
          'drop trigger if exists products_words_au',
          'drop table if exists products_words',
        ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

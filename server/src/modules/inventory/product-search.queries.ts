/** Product search's statements: the matches gathered once, then counted and paged from there. */
import { isWordStartTerm } from '@duka/shared';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { type DialectName, orgIdCheck, textSearch, wordSearch } from '../../db/dialect.js';
import { orgAlertDays, type ProductsDb, type ProductsEb, type ProductWithStock, stockIn } from './inventory.queries.js';

export { stockIn, type ProductsDb, type ProductsEb };

/**
 * What product search looks in: the columns the products text index (migration 0017) and words
 * index (0050) cover, so
 * one indexed match answers; a pharmacist's "paracetamol" finds "Panadol 500" by its generic name.
 */
export const PRODUCT_SEARCH = { table: 'products', alias: 'p', columns: ['name', 'sku', 'generic_name'] };

/** A select over `products as p` that the list's filters narrow. */
export type ProductsQuery = SelectQueryBuilder<ProductsDb, 'p', { id: string; name: string }>;

/**
 * The ids and names of `orgId`'s products whose name, SKU or generic name contains `text`; for a
 * term of 1 or 2 letters or digits, whose name, SKU or generic name has a word starting with it.
 */
export const productMatches = (db: Kysely<Database>, dialect: DialectName, orgId: string, text: string): ProductsQuery =>
  db
    .selectFrom('products as p')
    .select(['p.id', 'p.name'])
    .where('p.org_id', '=', orgId)
    .where(isWordStartTerm(text) ? wordSearch(dialect, PRODUCT_SEARCH, text) : textSearch(dialect, PRODUCT_SEARCH, text));

/**
 * One page of `matches` by name (then id), each row whole with its stock in `storeId` and its
 * organisation's alert window, and `total`: all the matches. The matches are gathered once
 * (materialized: the text index is read once, for the count and the sort alike), sorted by
 * name and id alone, and only the page's rows are read whole and given their stock. No row past
 * the last page: `countMatches` then.
 */
export async function searchPage(
  db: Kysely<Database>,
  dialect: DialectName,
  where: { orgId: string; storeId: string },
  matches: ProductsQuery,
  page: { limit: number; offset: number },
): Promise<Array<ProductWithStock & { total: number | string }>> {
  const rows = await db
    .with(
      (cte) => cte('m').materialized(),
      () => matches,
    )
    .with('pg', (w) => w.selectFrom('m').select(['m.id', 'm.name']).orderBy('m.name').orderBy('m.id').limit(page.limit).offset(page.offset))
    .selectFrom('pg')
    .innerJoin('products as p', (join) => join.onRef('p.id', '=', 'pg.id').on(orgIdCheck(dialect, 'p.org_id', where.orgId)))
    .selectAll('p')
    .select((eb) => [
      orgAlertDays(eb as unknown as ProductsEb).as('org_expiry_alert_days'),
      stockIn(eb as unknown as ProductsEb, where.storeId).as('stock'),
      eb
        .selectFrom('m')
        .select((m) => m.fn.countAll<number>().as('n'))
        .$asScalar()
        .$notNull()
        .as('total'),
    ])
    .orderBy('pg.name')
    .orderBy('pg.id')
    .execute();
  return rows as Array<ProductWithStock & { total: number | string }>;
}

/** How many `matches` there are. */
export async function countMatches(db: Kysely<Database>, matches: ProductsQuery): Promise<number> {
  const row = await db
    .with('m', () => matches)
    .selectFrom('m')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A page of a list and the total it is a page of (design brief §3), for every paged list: two
 * statements run side by side, the filtered query counted and the ordered rows limited to the page.
 */
import { type PageMeta, pageMeta } from '@duka/shared';
import type { SelectQueryBuilder } from 'kysely';

/** Which page is asked for: 1-based `page` of `page_size` rows. */
export interface PageAsk {
  page: number;
  page_size: number;
}

/** The rows page `page` covers, for a list already in memory or a query. */
export const pageWindow = (q: PageAsk) => ({ limit: q.page_size, offset: (q.page - 1) * q.page_size });

/** `qb.$call(onPage(q))`: the query limited to the page's rows. */
export const onPage =
  (q: PageAsk) =>
  <QB extends SelectQueryBuilder<any, any, any>>(qb: QB): QB => {
    const { limit, offset } = pageWindow(q);
    return qb.limit(limit).offset(offset) as QB;
  };

/**
 * `count(*)` of `filtered` (its select list, if any, replaced; its joins and conditions kept) and
 * the page of `ordered`, which is the same rows selected and put in the list's order. The two are
 * apart because a list may count fewer joins than it shows (a product's organisation name).
 */
export async function countedPage<R>(
  filtered: SelectQueryBuilder<any, any, unknown>,
  ordered: SelectQueryBuilder<any, any, R>,
  q: PageAsk,
): Promise<{ rows: R[]; total: number; meta: PageMeta }> {
  const [counted, rows] = await Promise.all([
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
    ordered.$call(onPage(q)).execute(),
  ]);
  const total = Number(counted.total);
  return { rows, total, meta: pageMeta(q.page, q.page_size, total) };
}

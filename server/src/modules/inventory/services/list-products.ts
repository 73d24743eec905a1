/** The catalogue listed and searched: a page of products by name, with the exact total. */
import { pageMeta } from '@duka/shared';
import type { ListProductsQuery, PageMeta, Product } from '@duka/shared';
import { type Expression, type SelectQueryBuilder, sql } from 'kysely';
import { requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { onPage, pageWindow } from '../../../db/page.js';
import { productsWithStock, toProducts } from '../inventory.queries.js';
import { countMatches, type ProductsDb, type ProductsEb, productMatches, searchPage, stockIn } from '../product-search.queries.js';

type Filters = Pick<ListProductsQuery, 'category_id' | 'status' | 'low_stock'>;

/** The list's filters besides the text, the same for a search and a plain listing; `stock` is how the query reads a product's level. */
function filtered<QB extends SelectQueryBuilder<ProductsDb, 'p', object>>(
  query: QB,
  q: Filters,
  stock: (eb: ProductsEb) => Expression<number>,
): QB {
  let out = query;
  if (q.category_id) out = out.where('p.category_id', '=', q.category_id) as QB;
  if (q.status) out = out.where('p.is_active', '=', q.status === 'active' ? 1 : 0) as QB;
  if (q.low_stock !== undefined) {
    out = out.where((eb) => {
      const low = eb.and([eb('p.is_service', '=', 0), eb(stock(eb), '<=', eb.ref('p.reorder_point'))]);
      return q.low_stock ? low : eb.not(low);
    }) as QB;
  }
  return out;
}

export async function listProducts(ctx: AuthedContext, q: ListProductsQuery): Promise<{ items: Product[]; meta: PageMeta }> {
  const { orgId, storeId } = requireStore(ctx);
  const { offset } = pageWindow(q);
  if (q.search) {
    // A search is one statement whatever the page: the matches counted and paged together
    // (product-search.queries.ts). Past the last page no row carries the total: a count then.
    // It reads what is committed, off SQLite's writer thread (ctx.readDb).
    const db = ctx.readDb;
    const matches = filtered(productMatches(db, ctx.dialect, orgId, q.search), q, (eb) => stockIn(eb, storeId));
    const rows = await searchPage(db, ctx.dialect, { orgId, storeId }, matches, pageWindow(q));
    const total = rows.length > 0 ? Number(rows[0]!.total) : offset === 0 ? 0 : await countMatches(db, matches);
    return { items: await toProducts(db, rows, ctx.config), meta: pageMeta(q.page, q.page_size, total) };
  }
  const query = filtered(productsWithStock(ctx.db, orgId, storeId), q, (eb) => eb.fn.coalesce(sql.ref<number>('ps.qty'), eb.lit(0)));
  const rows = await query.orderBy('p.name').orderBy('p.id').$call(onPage(q)).execute();
  // A page short of full is the last one, so it gives the total without counting. Only a full
  // page, or one past the end, still needs the count.
  const lastPage = rows.length < q.page_size && (rows.length > 0 || offset === 0);
  const count = lastPage
    ? offset + rows.length
    : Number(
        (
          await query
            .clearSelect()
            .select((eb) => eb.fn.countAll<number>().as('total'))
            .executeTakeFirstOrThrow()
        ).total,
      );
  return { items: await toProducts(ctx.db, rows, ctx.config), meta: pageMeta(q.page, q.page_size, count) };
}

/** Per product: quantity, revenue, cost, profit, margin and how many days the stock lasts at the range's pace. */
import { fromCents, fromCount, pageMeta, type PageMeta, type ProductsReport, type ProductsReportQuery } from '@duka/shared';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { findOrgCategory, productsForReport, stockByProduct } from '../analytics-reports.queries.js';
import { rollupProducts } from '../analytics-rollups.queries.js';
import { scopeFields } from './scope.js';
import { pct, rollupRange } from './summary.js';
import { requireRole } from '../../../lib/auth/authorize.js';

type Item = ProductsReport['items'][number];

/** Highest first for money and quantity; fewest days of cover first (unknown cover last); names A-Z. */
const SORTS: Record<ProductsReportQuery['sort'], (a: Item, b: Item) => number> = {
  revenue: (a, b) => b.revenue - a.revenue,
  profit: (a, b) => b.profit - a.profit,
  qty: (a, b) => b.qty_sold - a.qty_sold,
  margin: (a, b) => (b.margin_pct ?? -Infinity) - (a.margin_pct ?? -Infinity),
  stock_cover: (a, b) => (a.stock_cover_days ?? Infinity) - (b.stock_cover_days ?? Infinity),
  name: (a, b) => a.name.localeCompare(b.name),
};

export async function productsReport(ctx: AuthedContext, q: ProductsReportQuery): Promise<{ data: ProductsReport; meta: PageMeta }> {
  requireRole(ctx, 'owner');
  const r = await rollupRange(ctx, q);
  if (q.category && !(await findOrgCategory(ctx.readDb, r.orgId, q.category))) throw new NotFoundError('category');
  const [products, sold, stock] = await Promise.all([
    productsForReport(ctx.readDb, r.orgId, q.category),
    rollupProducts(ctx.readDb, r),
    stockByProduct(ctx.readDb, r),
  ]);
  const sales = new Map(sold.map((s) => [s.productId, s]));
  const days = r.dates.length;
  const items: Item[] = products
    .filter((p) => p.is_active === 1 || sales.has(p.id))
    .map((p) => {
      const s = sales.get(p.id);
      const qty = s?.qty ?? 0;
      const net = s?.net ?? 0;
      const profit = net - (s?.cost ?? 0);
      const level = p.is_service === 1 ? null : (stock.get(p.id) ?? 0);
      return {
        product_id: p.id,
        name: p.name,
        category_id: p.category_id,
        category_name: p.category_name,
        unit: p.unit,
        // Rollups and stock hold counts; the ratio of two counts (stock cover) needs no conversion.
        qty_sold: fromCount(qty, p.unit),
        revenue: fromCents(s?.revenue ?? 0),
        cost: fromCents(s?.cost ?? 0),
        profit: fromCents(profit),
        margin_pct: s ? pct(profit, net) : null,
        stock: level === null ? null : fromCount(level, p.unit),
        stock_cover_days: level === null || qty === 0 ? null : Math.round((Math.max(0, level) / (qty / days)) * 10) / 10,
      };
    });
  const sort = SORTS[q.sort];
  items.sort((a, b) => sort(a, b) || a.name.localeCompare(b.name) || (a.product_id < b.product_id ? -1 : 1));
  const page = items.slice((q.page - 1) * q.page_size, q.page * q.page_size);
  return { data: { items: page, ...scopeFields(r) }, meta: pageMeta(q.page, q.page_size, items.length) };
}

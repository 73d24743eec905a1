/** Products and categories of every organisation; writes go through the inventory services. */
import type {
  AdminCategory,
  AdminProduct,
  AdminProductDetail,
  CreateAdminCategoryInput,
  ListAdminCategoriesQuery,
  ListAdminProductsQuery,
  PageMeta,
  UpdateAdminProductInput,
  UpdateCategoryInput,
} from '@duka/shared';
import { fromCount } from '@duka/shared';
import { containsText } from '../../../db/dialect.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import {
  toCategory,
  toProducts,
  createCategory,
  deleteCategory,
  updateCategory,
  updateProduct,
} from '../../inventory/inventory.exports.js';
import type { CategoryRow, ProductRow } from '../../../db/tables/inventory.table.js';
import { productStockByStore, productsWithOrg, selectCategories, selectProducts, soldQtyOf } from '../admin.queries.js';
import { acrossOrgs, adminTx, asOrg, auditAdmin, requireOrgExists } from './admin-context.js';
import { countedPage } from '../../../db/page.js';
import { requireAdmin } from '../../../lib/auth/authorize.js';

type ProductWithOrg = ProductRow & { stock: number | string | null; organisation_name: string; org_expiry_alert_days: number };

async function toAdminProducts(ctx: AuthedContext, rows: ProductWithOrg[]): Promise<AdminProduct[]> {
  const products = await toProducts(
    ctx.db,
    rows.map((row) => ({ ...row, stock: Number(row.stock ?? 0) })),
    ctx.config,
  );
  return products.map((p, i) => ({ ...p, org_id: rows[i]!.org_id, organisation_name: rows[i]!.organisation_name }));
}

export async function listAdminProducts(ctx: AuthedContext, q: ListAdminProductsQuery): Promise<{ items: AdminProduct[]; meta: PageMeta }> {
  requireAdmin(ctx);
  let base = productsWithOrg(ctx.db);
  base = q.org_id ? base.where('p.org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.category_id) base = base.where('p.category_id', '=', q.category_id);
  if (q.status) base = base.where('p.is_active', '=', q.status === 'active' ? 1 : 0);
  if (q.search) {
    const t = q.search;
    base = base.where((eb) =>
      eb.or([
        containsText(ctx.dialect, 'p.name', t),
        containsText(ctx.dialect, 'p.sku', t),
        containsText(ctx.dialect, 'p.barcode', t),
        // A pack's barcode finds its product too (issue 51).
        eb.exists(
          eb
            .selectFrom('product_packs as k')
            .select('k.id')
            .whereRef('k.org_id', '=', 'p.org_id')
            .whereRef('k.product_id', '=', 'p.id')
            .where(containsText(ctx.dialect, 'k.barcode', t)),
        ),
      ]),
    );
  }
  const ids = base.select('p.id');
  const { rows, meta } = await countedPage(
    base,
    selectProducts(ctx.db)
      .where('p.id', 'in', ids)
      .$call((qb) => (q.org_id ? qb.where('p.org_id', '=', q.org_id) : qb.modifyEnd(acrossOrgs)))
      .orderBy('o.name')
      .orderBy('p.name')
      .orderBy('p.id'),
    q,
  );
  return { items: await toAdminProducts(ctx, rows), meta };
}

async function requireProduct(ctx: AuthedContext, id: string): Promise<ProductWithOrg> {
  const row = await selectProducts(ctx.db).where('p.id', '=', id).modifyEnd(acrossOrgs).executeTakeFirst();
  if (!row) throw new NotFoundError('product');
  return row;
}

export async function getAdminProduct(ctx: AuthedContext, id: string): Promise<AdminProductDetail> {
  requireAdmin(ctx);
  const row = await requireProduct(ctx, id);
  const [category, stores, sold, prices] = await Promise.all([
    row.category_id
      ? ctx.db.selectFrom('categories').select('name').where('org_id', '=', row.org_id).where('id', '=', row.category_id).executeTakeFirst()
      : undefined,
    productStockByStore(ctx.db, row.org_id, id),
    soldQtyOf(ctx.db, row.org_id, id),
    ctx.db
      .selectFrom('product_prices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', row.org_id)
      .where('product_id', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    ...(await toAdminProducts(ctx, [row]))[0]!,
    category_name: category?.name ?? null,
    // Counts of the product's one unit, answered in it.
    stock_by_store: stores.map((s) => ({ store_id: s.store_id, store_name: s.store_name, qty: fromCount(Number(s.qty), row.unit) })),
    sold_qty: fromCount(Number(sold.qty), row.unit),
    price_changes: Number(prices.n),
  };
}

/** The owner's PATCH (same validation, price history, change log) for the product's organisation, without `stock`. */
export async function updateProductByAdmin(ctx: AuthedContext, id: string, input: UpdateAdminProductInput): Promise<AdminProductDetail> {
  requireAdmin(ctx);
  const product = await requireProduct(ctx, id);
  await adminTx(ctx, async (tx) => {
    await updateProduct(await asOrg(tx, product.org_id), id, input);
    await auditAdmin(tx, {
      action: 'product.update',
      description: `Platform admin updated product ${product.name}: ${Object.keys(input).join(', ')}`,
      orgId: product.org_id,
      entity: 'product',
      entityId: id,
    });
  });
  return getAdminProduct(ctx, id);
}

type CategoryWithOrg = CategoryRow & { organisation_name: string; product_count: number | string | null };

const toAdminCategory = (row: CategoryWithOrg): AdminCategory => ({
  ...toCategory(row),
  org_id: row.org_id,
  organisation_name: row.organisation_name,
});

export async function listAdminCategories(
  ctx: AuthedContext,
  q: ListAdminCategoriesQuery,
): Promise<{ items: AdminCategory[]; meta: PageMeta }> {
  requireAdmin(ctx);
  let base = ctx.db.selectFrom('categories as c');
  base = q.org_id ? base.where('c.org_id', '=', q.org_id) : base.modifyEnd(acrossOrgs);
  if (q.search) base = base.where(containsText(ctx.dialect, 'c.name', q.search));
  const ids = base.select('c.id');
  const { rows, meta } = await countedPage(
    base,
    selectCategories(ctx.db)
      .where('c.id', 'in', ids)
      .$call((qb) => (q.org_id ? qb.where('c.org_id', '=', q.org_id) : qb.modifyEnd(acrossOrgs)))
      .orderBy('o.name')
      .orderBy('c.sort_order')
      .orderBy('c.name')
      .orderBy('c.id'),
    q,
  );
  return { items: rows.map(toAdminCategory), meta };
}

async function requireCategory(ctx: AuthedContext, id: string): Promise<CategoryWithOrg> {
  const row = await selectCategories(ctx.db).where('c.id', '=', id).modifyEnd(acrossOrgs).executeTakeFirst();
  if (!row) throw new NotFoundError('category');
  return row;
}

export async function createCategoryByAdmin(ctx: AuthedContext, input: CreateAdminCategoryInput): Promise<AdminCategory> {
  requireAdmin(ctx);
  const { org_id, ...fields } = input;
  await requireOrgExists(ctx, org_id);
  const created = await adminTx(ctx, async (tx) => {
    const category = await createCategory(await asOrg(tx, org_id), fields);
    await auditAdmin(tx, {
      action: 'category.create',
      description: `Platform admin added category ${category.name}`,
      orgId: org_id,
      entity: 'category',
      entityId: category.id,
    });
    return category;
  });
  return toAdminCategory(await requireCategory(ctx, created.id));
}

export async function updateCategoryByAdmin(ctx: AuthedContext, id: string, input: UpdateCategoryInput): Promise<AdminCategory> {
  requireAdmin(ctx);
  const category = await requireCategory(ctx, id);
  await adminTx(ctx, async (tx) => {
    await updateCategory(await asOrg(tx, category.org_id), id, input);
    await auditAdmin(tx, {
      action: 'category.update',
      description: `Platform admin updated category ${category.name}`,
      orgId: category.org_id,
      entity: 'category',
      entityId: id,
    });
  });
  return toAdminCategory(await requireCategory(ctx, id));
}

/** Only an empty category (409 otherwise, as for the owner). */
export async function deleteCategoryByAdmin(ctx: AuthedContext, id: string): Promise<void> {
  requireAdmin(ctx);
  const category = await requireCategory(ctx, id);
  await adminTx(ctx, async (tx) => {
    await deleteCategory(await asOrg(tx, category.org_id), id);
    await auditAdmin(tx, {
      action: 'category.delete',
      description: `Platform admin deleted category ${category.name}`,
      orgId: category.org_id,
      entity: 'category',
      entityId: id,
    });
  });
}

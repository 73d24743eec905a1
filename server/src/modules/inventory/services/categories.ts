import type { Category, CreateCategoryInput, UpdateCategoryInput } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { uniqueViolationField } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ConflictError, DuplicateError, NotFoundError } from '../../../lib/errors.js';
import { categoriesWithCounts, findCategory, insertCategory, toCategory, updateCategoryRow } from '../inventory.queries.js';
import { requireStore } from '../../../lib/auth/authorize.js';

function rethrowDuplicate(err: unknown): never {
  if (uniqueViolationField(err) === 'name') throw new DuplicateError('name', 'a category with this name already exists');
  throw err;
}

async function productCount(ctx: AuthedContext, orgId: string, categoryId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('category_id', '=', categoryId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** All categories with how many products each holds, in display order. */
export async function listCategories(ctx: AuthedContext): Promise<Category[]> {
  const { orgId } = requireStore(ctx);
  const rows = await categoriesWithCounts(ctx.db, orgId);
  return rows.map(toCategory);
}

export async function createCategory(ctx: AuthedContext, input: CreateCategoryInput): Promise<Category> {
  const { orgId } = requireStore(ctx);
  try {
    return await withTransaction(ctx, async (tx) => {
      const now = tx.clock.now();
      const row = await insertCategory(tx.db, orgId, input, now);
      noteChange(tx, orgId, { entity: 'category', id: row.id });
      await recordAudit(tx, { action: 'category.create', description: `Added category ${row.name}`, entity: 'category', entityId: row.id });
      return toCategory({ ...row, product_count: 0 });
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}

export async function updateCategory(ctx: AuthedContext, id: string, input: UpdateCategoryInput): Promise<Category> {
  const { orgId } = requireStore(ctx);
  if (!(await findCategory(ctx.db, orgId, id))) throw new NotFoundError('category');
  try {
    return await withTransaction(ctx, async (tx) => {
      const row = await updateCategoryRow(tx.db, { orgId, id }, input, tx.clock.now());
      noteChange(tx, orgId, { entity: 'category', id });
      await recordAudit(tx, { action: 'category.update', description: `Updated category ${row.name}`, entity: 'category', entityId: id });
      return toCategory({ ...row, product_count: await productCount(tx, orgId, id) });
    });
  } catch (err) {
    rethrowDuplicate(err);
  }
}

/** Only an empty category can be deleted (409 while it still holds products, active or not). */
export async function deleteCategory(ctx: AuthedContext, id: string): Promise<void> {
  const { orgId } = requireStore(ctx);
  const category = await findCategory(ctx.db, orgId, id);
  if (!category) throw new NotFoundError('category');
  await withTransaction(ctx, async (tx) => {
    const count = await productCount(tx, orgId, id);
    if (count > 0) throw new ConflictError(`category still has ${count} product${count === 1 ? '' : 's'}; move or delete them first`);
    await tx.db.deleteFrom('categories').where('org_id', '=', orgId).where('id', '=', id).execute();
    noteChange(tx, orgId, { entity: 'category', id, op: 'delete' });
    await recordAudit(tx, {
      action: 'category.delete',
      description: `Deleted category ${category.name}`,
      entity: 'category',
      entityId: id,
    });
  });
}

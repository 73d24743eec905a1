/**
 * Stock levels per store. `changeStockLevel` is the one way stock moves: adjustments, sales,
 * refunds, voids and deliveries all call it inside their transaction.
 */
import { newId } from '@duka/shared';
import type { AdjustStockInput, Product, StockAdjustment } from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { iso } from '../../../lib/clock.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { requireStore } from '../../../lib/auth/authorize.js';
import { InsufficientStockError, InvalidStateError, NotFoundError } from '../../../lib/errors.js';
import { findProduct, productsWithStock, toProduct } from '../inventory.queries.js';

export interface StockChange {
  orgId: string;
  storeId: string;
  productId: string;
  productName: string;
  delta: number;
  /** Offline sales already happened: they may take stock below zero (recorded as oversold). */
  allowNegative?: boolean;
  /** Names the request field in an INSUFFICIENT_STOCK error (e.g. `lines.0.qty`). */
  field?: string;
}

/**
 * Move stock by `delta` and return the new level. The check and the write are one conditional
 * UPDATE, so two concurrent sales of the last unit cannot both succeed.
 */
export async function changeStockLevel(ctx: ServiceContext, change: StockChange): Promise<number> {
  const now = ctx.clock.now();
  const apply = () => {
    let update = ctx.db
      .updateTable('product_stock')
      .set((eb) => ({ qty: eb('qty', '+', change.delta), updated_at: now }))
      .where('store_id', '=', change.storeId)
      .where('product_id', '=', change.productId);
    if (!change.allowNegative && change.delta < 0) update = update.where('qty', '>=', -change.delta);
    return update.returning('qty').executeTakeFirst();
  };
  let row = await apply();
  if (!row) {
    // No row yet for this store (or not enough stock): create the row at 0 and try once more.
    const created = await ctx.db
      .insertInto('product_stock')
      .values({ store_id: change.storeId, product_id: change.productId, qty: 0, updated_at: now })
      .onConflict((oc) => oc.columns(['store_id', 'product_id']).doNothing())
      .executeTakeFirst();
    if (Number(created.numInsertedOrUpdatedRows ?? 0) > 0) row = await apply();
  }
  if (!row) {
    const current = await ctx.db.selectFrom('product_stock').select('qty').where('store_id', '=', change.storeId).where('product_id', '=', change.productId).executeTakeFirst();
    throw new InsufficientStockError(change.productName, current?.qty ?? 0, change.field);
  }
  noteChange(ctx, change.orgId, { entity: 'stock', id: change.productId, storeId: change.storeId });
  return row.qty;
}

/** Record an adjustment row (never edited or deleted) for a change already applied. */
export async function insertAdjustment(
  ctx: AuthedContext,
  a: { productId: string; qtyChange: number; qtyAfter: number; reason: string; note?: string | null },
): Promise<void> {
  const { orgId, storeId } = requireStore(ctx);
  await ctx.db
    .insertInto('stock_adjustments')
    .values({
      id: newId(),
      org_id: orgId,
      store_id: storeId,
      product_id: a.productId,
      qty_change: a.qtyChange,
      qty_after: a.qtyAfter,
      reason: a.reason,
      note: a.note ?? null,
      adjusted_by: ctx.actor.userId,
      created_at: ctx.clock.now(),
    })
    .execute();
}

export async function adjustStock(ctx: AuthedContext, productId: string, input: AdjustStockInput): Promise<Product> {
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const product = await findProduct(tx.db, orgId, storeId, productId);
    if (!product) throw new NotFoundError('product');
    if (product.is_service === 1) throw new InvalidStateError('services have no stock');
    const qty = await changeStockLevel(tx, { orgId, storeId, productId, productName: product.name, delta: input.qty_change, field: 'qty_change' });
    await insertAdjustment(tx, { productId, qtyChange: input.qty_change, qtyAfter: qty, reason: input.reason, note: input.note });
    await recordAudit(tx, {
      action: 'stock.adjust',
      description: `Adjusted ${product.name} by ${input.qty_change > 0 ? '+' : ''}${input.qty_change} (${input.reason}), now ${qty}`,
      entity: 'product',
      entityId: productId,
    });
    return toProduct({ ...product, stock: qty });
  });
}

/** The active store's adjustments of a product, newest first. */
export async function listAdjustments(ctx: AuthedContext, productId: string, limit: number): Promise<StockAdjustment[]> {
  const { orgId, storeId } = requireStore(ctx);
  if (!(await findProduct(ctx.db, orgId, storeId, productId))) throw new NotFoundError('product');
  const rows = await ctx.db
    .selectFrom('stock_adjustments')
    .selectAll()
    .where('product_id', '=', productId)
    .where('store_id', '=', storeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    product_id: r.product_id,
    store_id: r.store_id,
    qty_change: r.qty_change,
    qty_after: r.qty_after,
    reason: r.reason,
    note: r.note,
    adjusted_by: r.adjusted_by,
    created_at: iso(r.created_at),
  }));
}

/** Active stocked products at or below their reorder point in the active store, emptiest first. */
export async function listLowStock(ctx: AuthedContext): Promise<Product[]> {
  const { orgId, storeId } = requireStore(ctx);
  const rows = await productsWithStock(ctx.db, orgId, storeId)
    .where('p.is_active', '=', 1)
    .where('p.is_service', '=', 0)
    .where((eb) => eb(eb.fn.coalesce('ps.qty', eb.lit(0)), '<=', eb.ref('p.reorder_point')))
    .orderBy('stock')
    .orderBy('p.name')
    .execute();
  return rows.map(toProduct);
}

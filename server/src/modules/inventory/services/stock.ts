/**
 * Stock adjustments per store. `changeStockLevel` (the stock-levels area) is the one way stock
 * moves; a batch-tracked product is adjusted lot by lot through pharmacy's batch ledger.
 */
import { type AdjustStockInput, fromCount, type Product, type StockAdjustment } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { iso } from '../../../lib/clock.js';
import type { AuthedContext } from '../../../lib/context.js';
import { requirePower, requireStore } from '../../../lib/auth/authorize.js';
import { InvalidStateError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { adjustBatch } from '../../pharmacy/pharmacy.exports.js';
import { changeStockLevel, countOf, countText } from '../../stock-levels/stock-levels.exports.js';
import { findProduct, insertStockAdjustment, productAdjustments, productsWithStock, toProducts } from '../inventory.queries.js';

/** Record an adjustment row (never edited or deleted) for a change already applied; both figures in counts. */
export async function insertAdjustment(
  ctx: AuthedContext,
  a: { productId: string; qtyChange: number; qtyAfter: number; reason: string; note?: string | null },
): Promise<void> {
  const { orgId, storeId } = requireStore(ctx);
  await insertStockAdjustment(ctx.db, {
    org_id: orgId,
    store_id: storeId,
    product_id: a.productId,
    qty_change: a.qtyChange,
    qty_after: a.qtyAfter,
    reason: a.reason,
    note: a.note ?? null,
    adjusted_by: ctx.actor.userId,
    created_at: ctx.clock.now(),
  });
}

export async function adjustStock(ctx: AuthedContext, productId: string, input: AdjustStockInput): Promise<Product> {
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const product = await findProduct(tx.db, orgId, storeId, productId);
    // Another organisation's product is not found, whoever asks; this one's stock needs the permission.
    if (!product) throw new NotFoundError('product');
    requirePower(tx, 'adjust_stock');
    if (product.is_service === 1) throw new InvalidStateError('services have no stock');
    const change = countOf(input.qty_change, product.unit, 'qty_change');
    let qty: number;
    let what = product.name;
    if (product.track_batches === 1) {
      const moved = await adjustBatch(tx, {
        orgId,
        storeId,
        product,
        batchId: input.batch_id,
        qtyChange: change,
        reason: input.reason,
        note: input.note,
      });
      qty = moved.stockAfter;
      what = `${product.name} lot ${moved.lotNumber}`;
    } else {
      if (input.batch_id !== undefined) throw new ValidationError('batch_id', `must be left out: ${product.name} does not track batches`);
      qty = await changeStockLevel(tx, {
        orgId,
        storeId,
        productId,
        productName: product.name,
        delta: change,
        field: 'qty_change',
        unit: product.unit,
      });
    }
    await insertAdjustment(tx, { productId, qtyChange: change, qtyAfter: qty, reason: input.reason, note: input.note });
    await recordAudit(tx, {
      action: 'stock.adjust',
      description: `Adjusted ${what} by ${change > 0 ? '+' : ''}${countText(change, product.unit)} (${input.reason}), now ${countText(qty, product.unit)}`,
      entity: 'product',
      entityId: productId,
    });
    return (await toProducts(tx.db, [{ ...product, stock: qty }], ctx.config))[0]!;
  });
}

/** The active store's adjustments of a product, newest first. */
export async function listAdjustments(ctx: AuthedContext, productId: string, limit: number): Promise<StockAdjustment[]> {
  const { orgId, storeId } = requireStore(ctx);
  const product = await findProduct(ctx.db, orgId, storeId, productId);
  if (!product) throw new NotFoundError('product');
  const rows = await productAdjustments(ctx.db, { orgId, storeId }, productId, limit);
  return rows.map((r) => ({
    id: r.id,
    product_id: r.product_id,
    store_id: r.store_id,
    qty_change: fromCount(Number(r.qty_change), product.unit),
    qty_after: fromCount(Number(r.qty_after), product.unit),
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
  return toProducts(ctx.db, rows, ctx.config);
}

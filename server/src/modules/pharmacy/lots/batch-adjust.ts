/**
 * A stock adjustment of a batch-tracked product (issue 14): a count names the lot it found more or
 * fewer units of, and the change goes through the batch ledger, so stock stays the sum of the
 * sellable lots. The adjustment row and audit entry stay with the adjustment verb in inventory.
 */
import { fromCount } from '@duka/shared';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import { countText } from '../../stock-levels/stock-levels.exports.js';
import type { ServiceContext } from '../../../lib/context.js';
import { InsufficientStockError, NotFoundError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { lockStock, moveBatch, UNALLOCATED_LOT } from './batch-ledger.js';
import { findProductBatch } from './batches.queries.js';

export interface BatchAdjustment {
  orgId: string;
  storeId: string;
  product: Pick<ProductRow, 'id' | 'name' | 'unit'>;
  batchId: string | undefined;
  /** In counts (the API's quantity already converted by the caller). */
  qtyChange: number;
  reason: string;
  note?: string;
}

const refuse = (code: 'INVALID_STATE' | 'INSUFFICIENT_STOCK', field: string, message: string) =>
  new ServiceError(code, message, { errors: [{ code, field, message }] });

/** Move the named lot by the adjustment and return its lot number and the product's stock after it. */
export async function adjustBatch(ctx: ServiceContext, a: BatchAdjustment): Promise<{ lotNumber: string; stockAfter: number }> {
  const { product } = a;
  if (!a.batchId)
    throw new ValidationError('batch_id', `is required: ${product.name} tracks batches, so an adjustment names the lot it counts`);
  await lockStock(ctx, a.orgId, a.storeId, product.id);
  const batch = await findProductBatch(ctx.db, { id: a.batchId, orgId: a.orgId, storeId: a.storeId, productId: product.id });
  if (!batch) throw new NotFoundError('batch');
  // Only sellable units are stock: units held in quarantine, expired or recalled leave by release or disposal.
  if (batch.status !== 'sellable') {
    throw refuse(
      'INVALID_STATE',
      'batch_id',
      `lot ${batch.lot_number} of ${product.name} is ${batch.status}: only a sellable lot is adjusted; release or dispose of these units instead`,
    );
  }
  const after = batch.qty_on_hand + a.qtyChange;
  if (batch.lot_number === UNALLOCATED_LOT && batch.source_batch_id === null) {
    // It holds what offline sales dispensed beyond every lot (negative); a count settles it, never past 0.
    if (a.qtyChange < 0 || after > 0) {
      throw refuse(
        'INVALID_STATE',
        'qty_change',
        `the unallocated lot of ${product.name} holds ${countText(batch.qty_on_hand, product.unit)}: an adjustment may only bring it towards 0 (at most +${countText(Math.max(0, -batch.qty_on_hand), product.unit)})`,
      );
    }
  } else if (after < 0) {
    throw new InsufficientStockError(
      `${product.name} in lot ${batch.lot_number}`,
      fromCount(batch.qty_on_hand, product.unit),
      'qty_change',
    );
  }
  await moveBatch(ctx, batch, { kind: 'adjusted', qty: a.qtyChange, reason: a.reason, note: a.note }, { productName: product.name });
  const stock = await ctx.db
    .selectFrom('product_stock')
    .select('qty')
    .where('org_id', '=', a.orgId)
    .where('store_id', '=', a.storeId)
    .where('product_id', '=', product.id)
    .executeTakeFirstOrThrow();
  return { lotNumber: batch.lot_number, stockAfter: Number(stock.qty) };
}

/** Stock adjustments on the till (damaged, counted, received), queued as `stock.adjust`. */
import { fromCount, quantityFault, StockAdjustPayload, toCount } from '@duka/shared';
import { TillError } from '../errors.js';
import { moveBatches, moveStock } from '../local/effects.js';
import { enqueue } from '../queue.js';
import * as reads from '../reads.js';
import type { StockAdjustInput } from '../types.js';
import { type ActionCtx, invalid, requirePower } from './context.js';

/** Answers the product's new local level. Like the server, stock never goes below zero by an adjustment. */
export async function adjustStock(ctx: ActionCtx, input: StockAdjustInput): Promise<number> {
  const parsed = StockAdjustPayload.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const p = parsed.data;
  const level = await ctx.db.transaction().execute(async (trx) => {
    await requirePower(trx, 'adjust_stock');
    const product = await reads.productById(trx, p.product_id);
    if (!product) throw new TillError('NOT_FOUND', 'product not found', 'product_id');
    if (product.is_service) throw new TillError('INVALID_STATE', 'services have no stock');
    if (product.stock + p.qty_change < 0)
      throw new TillError('INSUFFICIENT_STOCK', `only ${product.stock} of ${product.name} in stock`, 'qty_change');
    // The replica's level is in counts (issue 51); a quantity the unit cannot take is the server's 400 too.
    const unit = product.unit ?? 'piece';
    const fault = quantityFault(p.qty_change, unit);
    if (fault) throw new TillError('VALIDATION_ERROR', `qty_change ${fault}`, 'qty_change');
    const counts = toCount(p.qty_change, unit);
    await moveStock(trx, p.product_id, counts);
    // A batch-tracked product is adjusted lot by lot (`batch_id`); which lots may be is the server's to say.
    if (p.batch_id) await moveBatches(trx, { [p.batch_id]: p.qty_change });
    const undo = { stock: { [p.product_id]: -counts }, ...(p.batch_id ? { batches: { [p.batch_id]: -p.qty_change } } : {}) };
    await enqueue(trx, 'stock.adjust', p, ctx.now(), undo);
    return fromCount(toCount(product.stock, unit) + counts, unit);
  });
  ctx.queued();
  return level;
}

/**
 * Applying a stock-take (issue 52): one adjustment per product whose count differs from its
 * expected, reason `stock_take`, and products nobody counted left alone or set to zero, all in one
 * transaction. The count turns `applied` in the same transaction by a conditional update, so two
 * applies cannot both move stock; applying again answers the applied count and moves nothing.
 */
import type { ApplyStockTakeInput, StockTake } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { type AuditEntry, recordAudits } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError } from '../../../lib/errors.js';
import { changeStockLevel, countText } from '../../stock-levels/stock-levels.exports.js';
import { insertAdjustment } from '../services/stock.js';
import { getStockTake, loadStockTake } from './stock-takes.js';
import { closeStockTake, type LineWithProduct, settleLine, stockNow } from './stock-takes.queries.js';

export async function applyStockTake(ctx: AuthedContext, id: string, input: ApplyStockTakeInput): Promise<StockTake> {
  return withTransaction(ctx, async (tx) => {
    const { key, take, lines } = await loadStockTake(tx, id);
    if (take.status === 'cancelled') throw new InvalidStateError('this stock take is cancelled: it cannot be applied');
    const closing = { status: 'applied' as const, uncounted: input.uncounted, by: tx.actor.userId, at: tx.clock.now() };
    // Applied already (now or by a concurrent call): the same answer, nothing moves again.
    if (take.status === 'applied' || !(await closeStockTake(tx.db, { ...key, id }, closing))) return getStockTake(tx, id);
    const audits: AuditEntry[] = [];
    for (const line of lines) {
      const change = await settle(tx, { ...key, id }, line, input.uncounted);
      if (change) audits.push(change);
    }
    audits.push({
      action: 'stock_take.apply',
      description: `Applied a stock-take: ${audits.length} products adjusted, uncounted ${input.uncounted === 'zero' ? 'set to zero' : 'left alone'}`,
      entity: 'stock_take',
      entityId: id,
    });
    await recordAudits(tx, audits);
    return getStockTake(tx, id);
  });
}

/**
 * One line's adjustment: counted − expected for a counted product (the store's level moves by the
 * variance, so what was sold since its first count stays sold); −level for an uncounted one set to
 * zero. A count is a fact, like an offline sale: it may take the level below zero.
 */
async function settle(
  tx: AuthedContext,
  key: { orgId: string; storeId: string; id: string },
  line: LineWithProduct,
  uncounted: ApplyStockTakeInput['uncounted'],
): Promise<AuditEntry | null> {
  const where = { orgId: key.orgId, takeId: key.id, productId: line.product_id };
  const counted = line.first_counted_at !== null;
  const expected = counted ? line.expected! : await stockNow(tx.db, key, line.product_id);
  if (!counted && uncounted === 'leave') {
    await settleLine(tx.db, where, { expected, change: null, cost_price: line.product_cost });
    return null;
  }
  const change = (counted ? line.counted : 0) - expected;
  await settleLine(tx.db, where, { expected, change, cost_price: line.product_cost });
  if (change === 0) return null;
  const { orgId, storeId } = key;
  const productName = line.name;
  const after = await changeStockLevel(tx, {
    orgId,
    storeId,
    productId: line.product_id,
    productName,
    delta: change,
    allowNegative: true,
    unit: line.unit,
  });
  await insertAdjustment(tx, {
    productId: line.product_id,
    qtyChange: change,
    qtyAfter: after,
    reason: 'stock_take',
    note: `stock take ${key.id}`,
  });
  return {
    action: 'stock.adjust',
    description: `Adjusted ${productName} by ${change > 0 ? '+' : ''}${countText(change, line.unit)} (stock_take), now ${countText(after, line.unit)}`,
    entity: 'product',
    entityId: line.product_id,
  };
}

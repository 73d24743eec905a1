/**
 * Recalls (issue 14): a lot of a product is withdrawn across the organisation at once. Every batch
 * of the lot in every store (main and quarantine rows) that may be recalled becomes `recalled` in
 * one transaction, so stock falls by its sellable units everywhere together; each store that holds
 * or held the lot is notified, and the answer lists the sales that dispensed it, for call-backs.
 * Tills stop selling the lot on their next pull: `moveBatch` notes each batch as changed.
 */
import {
  checkBatchTransition,
  type CreateRecallInput,
  type ListRecallsQuery,
  newId,
  type PageMeta,
  type Recall,
  type RecallDetail,
} from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requireOrg, requirePermission } from '../../../lib/auth/authorize.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { BusinessRuleError, NotFoundError, ServiceError } from '../../../lib/errors.js';
import { createNotification } from '../../notifications/notifications.exports.js';
import { quantitySaid, countText } from '../../stock-levels/stock-levels.exports.js';
import { sameLot } from '../lots/batches.queries.js';
import { pageRecalls, recallDetail } from '../registers/registers.queries.js';
import { insertRecall } from './recalls.queries.js';
import { lockProduct, lockStock, moveBatch, UNALLOCATED_LOT } from '../lots/batch-ledger.js';

export async function createRecall(ctx: AuthedContext, input: CreateRecallInput): Promise<RecallDetail> {
  requirePermission(ctx, 'pharmacy');
  const orgId = requireOrg(ctx);
  const product = await ctx.db
    .selectFrom('products')
    .select(['id', 'name', 'unit'])
    .where('id', '=', input.product_id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  if (!product) throw new NotFoundError('product');
  const noLot = () =>
    new BusinessRuleError(`no store of yours holds or has held lot ${input.lot_number} of ${product.name}`, 'BUSINESS_RULE', 'lot_number');
  if (input.lot_number.toUpperCase() === UNALLOCATED_LOT) throw noLot();

  return withTransaction(ctx, async (tx) => {
    await lockProduct(tx, orgId, product.id);
    const lotBatches = () =>
      tx.db
        .selectFrom('batches')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('product_id', '=', product.id)
        .where(sameLot('lot_number', input.lot_number));
    const stores = [...new Set((await lotBatches().select('store_id').execute()).map((b) => b.store_id))].sort();
    if (stores.length === 0) throw noLot();
    // One product: its stock row in each store is the lock, taken in store order.
    for (const storeId of stores) await lockStock(tx, orgId, storeId, product.id);
    const batches = (await lotBatches().execute()).sort(
      (a, b) =>
        a.store_id.localeCompare(b.store_id) ||
        Number(a.source_batch_id !== null) - Number(b.source_batch_id !== null) ||
        a.id.localeCompare(b.id),
    );
    const recallId = newId();
    const moved = new Map<string, { units: number; stock: number }>();
    let batchCount = 0;
    for (const batch of batches) {
      // A batch already expired, recalled or disposed of is out of sale already, and a quarantine
      // row emptied by its release is finished: both are left as they are.
      if (checkBatchTransition(batch.status, 'recall').breach) continue;
      if (batch.source_batch_id !== null && batch.qty_on_hand === 0) continue;
      const { stockChange } = await moveBatch(
        tx,
        batch,
        { kind: 'recalled', qty: 0, status: 'recalled', recallId, reason: input.reason },
        { productName: product.name },
      );
      batchCount += 1;
      const store = moved.get(batch.store_id) ?? { units: 0, stock: 0 };
      moved.set(batch.store_id, { units: store.units + batch.qty_on_hand, stock: store.stock - stockChange });
    }
    const units = [...moved.values()].reduce((n, s) => n + s.units, 0);
    const said = (count: number) => quantitySaid(count, product.unit);
    const lot = batches[0]!.lot_number;
    await insertRecall(tx.db, {
      id: recallId,
      org_id: orgId,
      product_id: product.id,
      lot_number: lot,
      reason: input.reason,
      batch_count: batchCount,
      units,
      user_id: ctx.actor.userId,
      created_at: tx.clock.now(),
    });
    for (const storeId of stores) {
      const here = moved.get(storeId);
      await createNotification(tx, {
        orgId,
        storeId,
        category: 'stock',
        title: `Recall: ${product.name} lot ${lot}`,
        body: here
          ? `${said(here.units)} of lot ${lot} in this store are recalled and out of sale (stock down by ${product.unit === 'piece' ? here.stock : countText(here.stock, product.unit)}). Reason: ${input.reason}`
          : `Lot ${lot} is recalled; this store holds none of it for sale now. Check who it was dispensed to. Reason: ${input.reason}`,
      });
    }
    await recordAudit(tx, {
      action: 'pharmacy.recall',
      entity: 'recall',
      entityId: recallId,
      description: `Recalled ${product.name} lot ${lot} in ${moved.size} store(s), ${said(units)}: ${input.reason}`,
    });
    return (await recallDetail(tx.db, orgId, recallId))!;
  });
}

export async function listRecalls(ctx: AuthedContext, q: ListRecallsQuery): Promise<{ items: Recall[]; meta: PageMeta }> {
  requirePermission(ctx, 'pharmacy');
  return pageRecalls(ctx.db, requireOrg(ctx), q);
}

export async function getRecall(ctx: AuthedContext, id: string): Promise<RecallDetail> {
  requirePermission(ctx, 'pharmacy');
  const detail = await recallDetail(ctx.db, requireOrg(ctx), id);
  if (!detail) throw new NotFoundError('recall');
  return detail;
}

/**
 * A recalled lot is withdrawn for good: no store of the organisation receives it again, not even
 * one that never held it (a store that did finds its own batch recalled). `field` names the line.
 */
export async function refuseRecalledLot(
  ctx: ServiceContext,
  orgId: string,
  product: { id: string; name: string },
  lotNumber: string,
  field: string,
): Promise<void> {
  const recall = await ctx.db
    .selectFrom('recalls')
    .select('lot_number')
    .where('org_id', '=', orgId)
    .where('product_id', '=', product.id)
    .where(sameLot('lot_number', lotNumber))
    .executeTakeFirst();
  if (!recall) return;
  throw new ServiceError('INVALID_STATE', `lot ${recall.lot_number} of ${product.name} has been recalled: it cannot be received`, {
    errors: [{ code: 'INVALID_STATE', field, message: 'this lot has been recalled' }],
  });
}

/**
 * Quarantine and disposal (issue 14): refunded units wait in a quarantine row until the pharmacist
 * inspects them, then go back to their lot (`release`) or are destroyed on record (`dispose`), as
 * are expired and recalled units. Every change goes through `moveBatch` after `lockStock`.
 */
import {
  type Batch,
  type BatchAction,
  type BatchBreach,
  checkBatchTransition,
  type DisposeBatchInput,
  type ListQuarantineQuery,
  type PageMeta,
  type QuarantineItem,
  type ReleaseQuarantineInput,
} from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext, ServiceContext } from '../../../lib/context.js';
import { NotFoundError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { type BatchWithName, storeBatches, toBatch } from '../lots/batches.queries.js';
import { countOf, quantitySaid, countText } from '../../stock-levels/stock-levels.exports.js';
import { pageQuarantine } from '../registers/registers.queries.js';
import { lockStock, moveBatch, orgToday } from '../lots/batch-ledger.js';

function refuseTransition(breach: BatchBreach): never {
  throw new ServiceError(breach.code, breach.message, { errors: [{ code: breach.code, field: breach.field, message: breach.message }] });
}

function checkOrRefuse(status: BatchWithName['status'], action: BatchAction, dates?: { expiry_date: string; today: string }) {
  const check = checkBatchTransition(status, action, dates);
  if (check.breach) refuseTransition(check.breach);
  return check.to;
}

/**
 * A batch of the caller's store, read again after its product's stock lock is taken (the first
 * read only finds the product to lock). Another store's or organisation's batch is not found.
 */
async function lockedBatch(ctx: ServiceContext, orgId: string, storeId: string, id: string): Promise<BatchWithName> {
  const found = await storeBatches(ctx.db, orgId, storeId).where('b.id', '=', id).executeTakeFirst();
  if (!found) throw new NotFoundError('batch');
  await lockStock(ctx, orgId, storeId, found.product_id);
  return storeBatches(ctx.db, orgId, storeId).where('b.id', '=', id).executeTakeFirstOrThrow();
}

export async function listQuarantine(ctx: AuthedContext, q: ListQuarantineQuery): Promise<{ items: QuarantineItem[]; meta: PageMeta }> {
  requirePermission(ctx, 'pharmacy');
  const { orgId, storeId } = requireStore(ctx);
  return pageQuarantine(ctx.db, orgId, storeId, q);
}

/**
 * After inspection, a quarantine row's units go back to the lot they came from: the row gives them
 * up and the lot takes them, two `released` lines, and stock rises. The emptied row ends
 * `sellable` (its units are), so releasing it again is refused. A lot past expiry, or one
 * recalled, expired or disposed of since, does not take them back: dispose of them instead.
 */
export async function releaseQuarantine(ctx: AuthedContext, id: string, input: ReleaseQuarantineInput): Promise<Batch> {
  requirePermission(ctx, 'pharmacy');
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const row = await lockedBatch(tx, orgId, storeId, id);
    const today = await orgToday(tx, orgId, tx.clock.now());
    const to = checkOrRefuse(row.status, 'release', { expiry_date: row.expiry_date, today });
    const source = row.source_batch_id
      ? await tx.db.selectFrom('batches').selectAll().where('org_id', '=', orgId).where('id', '=', row.source_batch_id).executeTakeFirst()
      : undefined;
    if (!source) refuseTransition({ code: 'INVALID_STATE', message: 'these units have no lot to return to: dispose of them instead' });
    if (source.status !== 'sellable') checkOrRefuse(source.status, 'release');
    // The lot's expiry may have been corrected since the refund: its own date is the one that counts.
    if (source.expiry_date !== row.expiry_date) checkOrRefuse(row.status, 'release', { expiry_date: source.expiry_date, today });
    const opts = { productName: row.product_name };
    const move = { kind: 'released' as const, note: input.note, transactionId: row.transaction_id ?? undefined };
    await moveBatch(tx, row, { ...move, qty: -row.qty_on_hand, status: to }, opts);
    const back = await moveBatch(tx, source, { ...move, qty: row.qty_on_hand }, opts);
    await recordAudit(tx, {
      action: 'pharmacy.quarantine.release',
      entity: 'batch',
      entityId: row.id,
      description: `Released ${countText(row.qty_on_hand, row.unit)} × ${row.product_name} lot ${row.lot_number} from quarantine: ${input.note}`,
    });
    return toBatch({ ...back.row, product_name: row.product_name, unit: row.unit });
  });
}

/**
 * Destroy a quarantined, expired or recalled batch's units on record (reason, method, witness).
 * All its units by default; a part (`qty`) leaves the rest in the status it had, and the batch
 * becomes `disposed` when its last units go. Disposal never changes stock: the units were out of
 * it already.
 */
export async function disposeBatch(ctx: AuthedContext, id: string, input: DisposeBatchInput): Promise<Batch> {
  requirePermission(ctx, 'pharmacy');
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const row = await lockedBatch(tx, orgId, storeId, id);
    const to = checkOrRefuse(row.status, 'dispose');
    const qty = input.qty === undefined ? row.qty_on_hand : countOf(input.qty, row.unit, 'qty');
    if (qty > row.qty_on_hand)
      throw new ValidationError('qty', `is more than the ${quantitySaid(row.qty_on_hand, row.unit)} this batch holds`);
    const status = qty === row.qty_on_hand ? to : row.status;
    const { reason, method, witness } = input;
    const moved = await moveBatch(
      tx,
      row,
      { kind: 'disposed', qty: -qty, status, reason, method, witness },
      { productName: row.product_name },
    );
    await recordAudit(tx, {
      action: 'pharmacy.batch.dispose',
      entity: 'batch',
      entityId: row.id,
      description: `Disposed of ${countText(qty, row.unit)} × ${row.product_name} lot ${row.lot_number} (${row.status}) by ${method}, witnessed by ${witness}: ${reason}`,
    });
    return toBatch({ ...moved.row, product_name: row.product_name, unit: row.unit });
  });
}

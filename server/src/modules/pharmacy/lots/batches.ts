/**
 * The store's batches (issue 14): looking lots up (any member of the store: a cashier checks a
 * lot on the shelf), a batch with its ledger, correcting a lot number or expiry typed wrong at
 * receipt, and the stock expiring soon with its value (owner or staff with `pharmacy`).
 */
import type {
  Batch,
  BatchDetail,
  BatchDetailQuery,
  CorrectBatchInput,
  ExpiringBatch,
  ExpiringMeta,
  ExpiringQuery,
  ListBatchesQuery,
  PageMeta,
} from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { DuplicateError, NotFoundError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { batchMovements, findOtherLot, pageBatches, pageExpiring, storeBatches, toBatch } from './batches.queries.js';
import { lockStock, moveBatch, orgToday, UNALLOCATED_LOT } from './batch-ledger.js';

export async function listBatches(ctx: AuthedContext, q: ListBatchesQuery): Promise<{ items: Batch[]; meta: PageMeta }> {
  const { orgId, storeId } = requireStore(ctx);
  const today = await orgToday(ctx, orgId, ctx.clock.now());
  return pageBatches(ctx.db, { orgId, storeId, today }, q);
}

export async function getBatch(ctx: AuthedContext, id: string, q: BatchDetailQuery): Promise<BatchDetail> {
  const { orgId, storeId } = requireStore(ctx);
  const row = await storeBatches(ctx.db, orgId, storeId).where('b.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError('batch');
  const { count, movements } = await batchMovements(ctx.db, row, q.movements);
  return { ...toBatch(row), movement_count: count, movements };
}

const invalid = (field: string, message: string) =>
  new ServiceError('INVALID_STATE', message, { errors: [{ code: 'INVALID_STATE', field, message }] });

/**
 * Correct a lot's number and/or expiry. The lot's quarantine rows are the same boxes, so they take
 * the correction too (each with its own `corrected` ledger line); a quarantine row is never
 * corrected on its own. A new expiry re-arms the expiry alert for the new date.
 */
export async function correctBatch(ctx: AuthedContext, id: string, input: CorrectBatchInput): Promise<Batch> {
  requirePermission(ctx, 'pharmacy');
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const found = await storeBatches(tx.db, orgId, storeId).where('b.id', '=', id).executeTakeFirst();
    if (!found) throw new NotFoundError('batch');
    const field = input.lot_number !== undefined ? 'lot_number' : 'expiry_date';
    if (found.source_batch_id !== null) {
      throw invalid(
        field,
        `this is a quarantine row of lot ${found.lot_number}: correct batch ${found.source_batch_id} and its quarantine rows follow`,
      );
    }
    if (found.lot_number === UNALLOCATED_LOT) {
      throw invalid(
        field,
        `the ${UNALLOCATED_LOT} lot only holds what offline sales dispensed beyond every lot: it has no lot number or expiry to correct`,
      );
    }
    if (input.lot_number !== undefined && input.lot_number.toUpperCase() === UNALLOCATED_LOT) {
      throw new ValidationError('lot_number', `${UNALLOCATED_LOT} is reserved for units no lot held`);
    }
    await lockStock(tx, orgId, storeId, found.product_id);
    const batch = await tx.db.selectFrom('batches').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirstOrThrow();
    const before = { lot_number: batch.lot_number, expiry_date: batch.expiry_date };
    const after = { lot_number: input.lot_number ?? batch.lot_number, expiry_date: input.expiry_date ?? batch.expiry_date };
    if (after.lot_number === before.lot_number && after.expiry_date === before.expiry_date)
      return toBatch({ ...batch, product_name: found.product_name, unit: found.unit });

    if (after.lot_number !== before.lot_number) {
      const other = await findOtherLot(tx.db, batch, after.lot_number);
      if (other)
        throw new DuplicateError('lot_number', `lot ${after.lot_number} of ${found.product_name} is already another batch in this store`);
    }

    const move = {
      kind: 'corrected' as const,
      qty: 0,
      reason: input.reason,
      details: { before, after },
      set: after,
    };
    const opts = { productName: found.product_name };
    const { row } = await moveBatch(tx, batch, move, opts);
    const quarantined = await tx.db
      .selectFrom('batches')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('source_batch_id', '=', batch.id)
      .orderBy('id')
      .execute();
    for (const q of quarantined) await moveBatch(tx, q, move, opts);

    const changes = [
      after.lot_number !== before.lot_number ? `lot ${before.lot_number} → ${after.lot_number}` : null,
      after.expiry_date !== before.expiry_date ? `expiry ${before.expiry_date} → ${after.expiry_date}` : null,
    ].filter((c) => c !== null);
    await recordAudit(tx, {
      action: 'pharmacy.batch.correct',
      description: `Corrected ${found.product_name} lot ${before.lot_number}: ${changes.join(', ')} (${input.reason})`,
      entity: 'batch',
      entityId: batch.id,
    });
    return toBatch({ ...row, product_name: found.product_name, unit: found.unit });
  });
}

export async function listExpiring(ctx: AuthedContext, q: ExpiringQuery): Promise<{ items: ExpiringBatch[]; meta: ExpiringMeta }> {
  requirePermission(ctx, 'pharmacy');
  const { orgId, storeId } = requireStore(ctx);
  const today = await orgToday(ctx, orgId, ctx.clock.now());
  return pageExpiring(ctx.db, { orgId, storeId, today }, q);
}

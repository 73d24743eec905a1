/**
 * Lots arriving on a delivery and leaving when it is returned (issue 14): the batch side of the
 * supplier's delivery, through the batch ledger, so stock moves with the sellable units.
 */
import { batchExpired } from '@duka/shared';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { ServiceError, ValidationError } from '../../../lib/errors.js';
import { createBatch, lockProduct, lockStock, moveBatch, orgToday } from './batch-ledger.js';
import { findLot } from './batches.queries.js';
import { refuseRecalledLot } from '../recalls/recalls.js';

export interface LotLine {
  orgId: string;
  storeId: string;
  product: { id: string; name: string };
  lotNumber: string | null;
  expiryDate: string | null;
  qty: number;
  unitCost: number;
  supplierId: string;
  deliveryId: string;
  /** The delivery line, to name it: `lines.N`. */
  field: string;
}

/** Receive a delivery line into its lot (created on first receipt) and return the stock after it. */
export async function receiveLot(ctx: ServiceContext, line: LotLine): Promise<number> {
  const { product, field } = line;
  if (!line.lotNumber || !line.expiryDate)
    throw new ValidationError(`${field}.lot_number`, `${product.name} tracks batches: give the lot number and expiry date`);
  const today = await orgToday(ctx, line.orgId, ctx.clock.now());
  if (batchExpired(line.expiryDate, today))
    throw new ValidationError(
      `${field}.expiry_date`,
      `lot ${line.lotNumber} expired on ${line.expiryDate}: an expired lot cannot be received`,
    );
  await lockProduct(ctx, line.orgId, product.id);
  await lockStock(ctx, line.orgId, line.storeId, product.id);
  await refuseRecalledLot(ctx, line.orgId, product, line.lotNumber, `${field}.lot_number`);
  const existing = await findLot(ctx.db, { orgId: line.orgId, storeId: line.storeId, productId: product.id }, line.lotNumber);
  if (existing && existing.expiry_date !== line.expiryDate) {
    throw new ValidationError(
      `${field}.expiry_date`,
      `lot ${line.lotNumber} of ${product.name} is on record with expiry ${existing.expiry_date}`,
    );
  }
  if (existing && existing.status !== 'sellable') {
    throw new ServiceError('INVALID_STATE', `lot ${line.lotNumber} of ${product.name} is ${existing.status}: it cannot be received`, {
      errors: [{ code: 'INVALID_STATE', field: `${field}.lot_number`, message: `this lot is ${existing.status}` }],
    });
  }
  const batch =
    existing ??
    (await createBatch(ctx, {
      org_id: line.orgId,
      store_id: line.storeId,
      product_id: product.id,
      lot_number: line.lotNumber,
      expiry_date: line.expiryDate,
      status: 'sellable',
      cost_price: line.unitCost,
      supplier_id: line.supplierId,
      delivery_id: line.deliveryId,
    }));
  await moveBatch(ctx, batch, { kind: 'received', qty: line.qty, deliveryId: line.deliveryId }, { productName: product.name });
  return stockOf(ctx, line, product.id);
}

/** Take a returned delivery's line back out of its lot (409 when those units are no longer there to return). */
export async function returnLot(ctx: ServiceContext, line: LotLine): Promise<number> {
  const { product } = line;
  await lockStock(ctx, line.orgId, line.storeId, product.id);
  const batch: BatchRow | undefined = line.lotNumber
    ? await findLot(ctx.db, { orgId: line.orgId, storeId: line.storeId, productId: product.id }, line.lotNumber)
    : undefined;
  if (!batch || batch.status !== 'sellable' || batch.qty_on_hand < line.qty) {
    const held = batch?.status === 'sellable' ? batch.qty_on_hand : 0;
    throw new ServiceError('INSUFFICIENT_STOCK', `not enough stock of ${product.name} in lot ${line.lotNumber}: ${held} available`, {
      errors: [{ code: 'INSUFFICIENT_STOCK', field: 'status', message: `lot ${line.lotNumber} holds ${held}` }],
    });
  }
  await moveBatch(
    ctx,
    batch,
    { kind: 'adjusted', qty: -line.qty, deliveryId: line.deliveryId, reason: 'delivery_returned' },
    { productName: product.name },
  );
  return stockOf(ctx, line, product.id);
}

async function stockOf(ctx: ServiceContext, at: { orgId: string; storeId: string }, productId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('product_stock')
    .select('qty')
    .where('org_id', '=', at.orgId)
    .where('store_id', '=', at.storeId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row?.qty ?? 0;
}

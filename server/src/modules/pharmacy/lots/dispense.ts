/**
 * Batches coming back with a sale's refund or void (issue 14). (Which lots a sale takes is the
 * shared `allocateFefo`, taken with the sale by take-sale-lots.ts, pharmacy's sale policy.)
 */
import { type Reversal, refundLots } from '@duka/shared';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { createBatch, moveBatch } from './batch-ledger.js';
import { saleLots } from './sale-lots.queries.js';

/**
 * Put a reversed sale's batch-tracked units back where they came from: a void straight back to
 * each lot; a refund into quarantine (a row per lot pointing at its batch) where returned medicine
 * is inspected first, else back to the lot. A lot disposed of since cannot take units back: they
 * go into quarantine. The caller holds every product's stock lock (taken in product-id order).
 * `part`: only these units of these products (a part of the sale refunded); absent, all of them.
 */
export async function returnSaleLots(
  ctx: ServiceContext,
  sale: { id: string; org_id: string; store_id: string },
  move: Reversal,
  into: 'stock' | 'quarantine',
  part?: Map<string, { from: number; count: number }>,
): Promise<Set<string>> {
  const lots = await saleLots(ctx.db, sale);
  const products = new Set<string>();
  const kind = move === 'refund' ? 'refunded' : 'voided';
  for (const [lot, qty] of part ? refundLots(lots, (l) => Number(l.line_qty), part) : lots.map((l) => [l, l.line_qty] as const)) {
    products.add(lot.product_id);
    const { line_qty: _taken, product_name: productName, ...batch } = lot;
    const quarantine = (move === 'refund' && into === 'quarantine') || batch.status === 'disposed';
    const target = quarantine
      ? await createBatch(ctx, {
          org_id: batch.org_id,
          store_id: batch.store_id,
          product_id: batch.product_id,
          lot_number: batch.lot_number,
          expiry_date: batch.expiry_date,
          status: 'quarantined',
          cost_price: batch.cost_price,
          supplier_id: batch.supplier_id,
          delivery_id: batch.delivery_id,
          source_batch_id: batch.id,
          transaction_id: sale.id,
        })
      : (batch as BatchRow);
    await moveBatch(ctx, target, { kind, qty, transactionId: sale.id }, { productName });
  }
  return products;
}

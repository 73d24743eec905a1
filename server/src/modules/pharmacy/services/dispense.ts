/**
 * Batches leaving with a sale and coming back with its refund or void (issue 14). Which lots a
 * line takes is the shared `allocateFefo` (the till runs the same); this writes what it decided
 * through the batch ledger and records the lots on the sale.
 */
import { allocateFefo, type FefoBreach, type LineBatch, type LineBatchInput, newId, type Reversal } from '@duka/shared';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import type { ProductRow } from '../../../db/tables/inventory.table.js';
import type { ServiceContext } from '../../../lib/context.js';
import { changeStockLevel } from '../../inventory/services/stock.js';
import { createBatch, lockStock, mainBatches, moveBatch, unallocatedBatch } from './batch-ledger.js';

export interface DispenseLine {
  /** Position of the line in the sale as sent, to name it. */
  index: number;
  product: Pick<ProductRow, 'id' | 'name'>;
  qty: number;
  /** The till's own allocation, on push. */
  preferred?: LineBatchInput[];
}

export interface Dispensed {
  lots: LineBatch[];
  breaches: FefoBreach[];
  /** The product's stock in the store after the sale. */
  stockAfter: number;
}

const fefoBatch = (b: BatchRow) => ({ batch_id: b.id, lot_number: b.lot_number, expiry_date: b.expiry_date, qty_on_hand: b.qty_on_hand, status: b.status, received_at: b.received_at });

/**
 * Take a line's units from its batches, FEFO (the till's batches first on push). `online`: any
 * breach (a shortfall) is returned before anything is written, for the caller to refuse the sale.
 * Offline the sale happened: units beyond every batch go on the unallocated lot and are returned
 * as an `oversold` breach, units kept on a batch no longer sellable as `dispensed_unsellable_batch`.
 */
export async function dispenseLine(
  ctx: ServiceContext,
  sale: { orgId: string; storeId: string; transactionId: string; today: string; online: boolean },
  line: DispenseLine,
): Promise<Dispensed> {
  const { orgId, storeId } = sale;
  const stock = { orgId, storeId, productId: line.product.id, productName: line.product.name };
  // Online every unit comes from a sellable lot, so the stock falls by the line's qty: moving it
  // first takes the lock and checks the count in one statement (as for any product).
  let stockAfter = 0;
  if (sale.online) stockAfter = await changeStockLevel(ctx, { ...stock, delta: -line.qty, field: `lines.${line.index}.qty` });
  else await lockStock(ctx, storeId, line.product.id);
  const batches = await mainBatches(ctx, storeId, line.product.id);
  const byId = new Map(batches.map((b) => [b.id, b]));
  const fefo = allocateFefo({
    index: line.index,
    product: { product_id: line.product.id, name: line.product.name },
    qty: line.qty,
    batches: batches.map(fefoBatch),
    today: sale.today,
    preferred: line.preferred,
  });
  if (sale.online && fefo.breaches.length) return { lots: [], breaches: fefo.breaches, stockAfter: 0 };

  const move = { kind: 'dispensed' as const, transactionId: sale.transactionId };
  const lots: LineBatch[] = [];
  let stockChange = 0;
  for (const a of fefo.allocations) {
    const moved = await moveBatch(ctx, byId.get(a.batch_id)!, { ...move, qty: -a.qty }, { productName: line.product.name, applyStock: false });
    stockChange += moved.stockChange;
    lots.push(a);
  }
  if (fefo.shortfall > 0) {
    const unallocated = await unallocatedBatch(ctx, orgId, storeId, line.product.id);
    const moved = await moveBatch(ctx, unallocated, { ...move, qty: -fefo.shortfall }, { productName: line.product.name, applyStock: false });
    stockChange += moved.stockChange;
    lots.push({ batch_id: unallocated.id, lot_number: unallocated.lot_number, expiry_date: unallocated.expiry_date, qty: fefo.shortfall });
  }
  if (sale.online && stockChange !== -line.qty) throw new Error(`online sale of ${line.product.name} moved ${stockChange} sellable units for ${line.qty}`);
  // Offline the units may have come off lots that were no longer stock: move what was.
  if (!sale.online) stockAfter = await changeStockLevel(ctx, { ...stock, delta: stockChange, allowNegative: true });
  return { lots, breaches: fefo.breaches, stockAfter };
}

/** Record the lots of a sale's lines (after the sale row exists). */
export async function recordSaleLots(ctx: ServiceContext, transactionId: string, lots: Array<LineBatch & { product_id: string }>): Promise<void> {
  if (lots.length === 0) return;
  await ctx.db
    .insertInto('transaction_line_batches')
    .values(lots.map((l) => ({ id: newId(), transaction_id: transactionId, product_id: l.product_id, batch_id: l.batch_id, lot_number: l.lot_number, expiry_date: l.expiry_date, qty: l.qty })))
    .execute();
}

/**
 * Put a reversed sale's batch-tracked units back where they came from: a void straight back to
 * each lot; a refund into quarantine (a row per lot pointing at its batch) where returned medicine
 * is inspected first, else back to the lot. A lot disposed of since cannot take units back: they
 * go into quarantine. Products in product-id order, as every stock writer locks.
 */
export async function returnSaleLots(ctx: ServiceContext, sale: { id: string; org_id: string; store_id: string }, move: Reversal, into: 'stock' | 'quarantine'): Promise<Set<string>> {
  const lots = await ctx.db
    .selectFrom('transaction_line_batches as l')
    .innerJoin('batches as b', 'b.id', 'l.batch_id')
    .innerJoin('products as p', 'p.id', 'l.product_id')
    .selectAll('b')
    .select(['l.qty as line_qty', 'p.name as product_name'])
    .where('l.transaction_id', '=', sale.id)
    .orderBy('l.product_id')
    .orderBy('l.id')
    .execute();
  const products = new Set<string>();
  const kind = move === 'refund' ? 'refunded' : 'voided';
  for (const lot of lots) {
    if (!products.has(lot.product_id)) await lockStock(ctx, sale.store_id, lot.product_id);
    products.add(lot.product_id);
    const { line_qty: qty, product_name: productName, ...batch } = lot;
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

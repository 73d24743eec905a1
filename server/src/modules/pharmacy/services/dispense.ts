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
import { type BatchMoveOf, createBatch, moveBatch, moveBatches, unallocatedBatch } from './batch-ledger.js';

export interface DispenseLine {
  /** Position of the line in the sale as sent, to name it. */
  index: number;
  product: Pick<ProductRow, 'id' | 'name'>;
  qty: number;
  /** The till's own allocation, on push. */
  preferred?: LineBatchInput[];
}

export interface DispenseSale {
  orgId: string;
  storeId: string;
  transactionId: string;
  /** The day the sale was made, in the organisation's time zone. */
  today: string;
  online: boolean;
}

export interface Dispensed {
  /** Per product: the lots its line took, and its stock after the sale. */
  lines: Map<string, { lots: LineBatch[]; stockAfter: number }>;
  breaches: FefoBreach[];
}

const fefoBatch = (b: BatchRow) => ({ batch_id: b.id, lot_number: b.lot_number, expiry_date: b.expiry_date, qty_on_hand: b.qty_on_hand, status: b.status, received_at: b.received_at });

/**
 * First step of a batch-tracked line, taken in the sale's product-id order with its other stock
 * moves: the stock falls by the line's qty, which takes the product's lock in the same statement.
 * Online that is exact (every unit must come from a sellable lot) and the count is checked; offline
 * it is what nearly always happens, and `dispenseLines` corrects it when units came off lots that
 * were no longer stock. Returns the stock after it.
 */
export function lockLine(ctx: ServiceContext, sale: DispenseSale, line: DispenseLine): Promise<number> {
  const field = `lines.${line.index}.qty`;
  return changeStockLevel(ctx, { orgId: sale.orgId, storeId: sale.storeId, productId: line.product.id, productName: line.product.name, delta: -line.qty, field, allowNegative: !sale.online });
}

/**
 * Take the lines' units from their lots, FEFO (the till's lots first on push), once every line is
 * locked (`lockLine`): one read of the lots and one `moveBatches` for the whole sale. Online, any
 * breach (a shortfall) is returned before anything is written, for the caller to refuse the sale.
 * Offline the sale happened: units beyond every lot go on the unallocated lot and come back as an
 * `oversold` breach, units kept on a lot no longer sellable as `dispensed_unsellable_batch`.
 */
export async function dispenseLines(ctx: ServiceContext, sale: DispenseSale, lines: DispenseLine[], stockAfter: Map<string, number>): Promise<Dispensed> {
  const out: Dispensed = { lines: new Map(), breaches: [] };
  if (lines.length === 0) return out;
  const { orgId, storeId } = sale;
  const batches = await ctx.db
    .selectFrom('batches')
    .selectAll()
    .where('store_id', '=', storeId)
    .where(
      'product_id',
      'in',
      lines.map((l) => l.product.id),
    )
    .where('source_batch_id', 'is', null)
    .orderBy('id')
    .execute();
  const byId = new Map(batches.map((b) => [b.id, b]));
  const fefo = lines.map((line) => {
    const own = batches.filter((b) => b.product_id === line.product.id);
    const product = { product_id: line.product.id, name: line.product.name };
    return { line, result: allocateFefo({ index: line.index, product, qty: line.qty, batches: own.map(fefoBatch), today: sale.today, preferred: line.preferred }) };
  });
  out.breaches = fefo.flatMap((f) => f.result.breaches);
  if (sale.online && out.breaches.length) return out;

  const move = { kind: 'dispensed' as const, transactionId: sale.transactionId };
  const moves: BatchMoveOf[] = [];
  for (const { line, result } of fefo) {
    const lots: LineBatch[] = [...result.allocations];
    for (const a of result.allocations) moves.push({ batch: byId.get(a.batch_id)!, move: { ...move, qty: -a.qty } });
    if (result.shortfall > 0) {
      const unallocated = await unallocatedBatch(ctx, orgId, storeId, line.product.id);
      moves.push({ batch: unallocated, move: { ...move, qty: -result.shortfall } });
      lots.push({ batch_id: unallocated.id, lot_number: unallocated.lot_number, expiry_date: unallocated.expiry_date, qty: result.shortfall });
    }
    out.lines.set(line.product.id, { lots, stockAfter: stockAfter.get(line.product.id) ?? 0 });
  }
  const names = new Map(lines.map((l) => [l.product.id, l.product.name]));
  const moved = await moveBatches(ctx, moves, { productNames: names, applyStock: false });
  if (sale.online) return out;
  // Offline some units may have come off lots that were no longer stock: give those back.
  const change = new Map<string, number>();
  moved.forEach(({ row, stockChange }) => change.set(row.product_id, (change.get(row.product_id) ?? 0) + stockChange));
  for (const line of lines) {
    const correction = (change.get(line.product.id) ?? 0) + line.qty;
    if (correction === 0) continue;
    const after = await changeStockLevel(ctx, { orgId, storeId, productId: line.product.id, productName: line.product.name, delta: correction, allowNegative: true });
    out.lines.get(line.product.id)!.stockAfter = after;
  }
  return out;
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
 * go into quarantine. The caller holds every product's stock lock (taken in product-id order).
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

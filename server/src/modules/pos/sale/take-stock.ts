/**
 * Stage `takeStock`: the stock each line takes. Each product's level falls by its line (online the
 * units must be there; offline a sale beyond them is booked as oversold), and a batch-tracked line
 * takes its units from lots, as the store's policy chooses them (pharmacy: FEFO, the till's lots
 * first on a push, the unallocated lot for units no lot held). Everything here is in counts of the
 * product's unit (issue 51; a strip of 10 tablets takes 10 from the lots); what a cashier reads
 * (the refusal, a conflict) is in the unit itself.
 */
import { type FefoBreach, fromCount, type LineBatch } from '@duka/shared';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import { InsufficientStockError } from '../../../lib/errors.js';
import type { BatchMoveOf } from '../../pharmacy/pharmacy.exports.js';
import { enforce, type SaleDraft, type SaleLine } from './sale-plan.js';

export interface StockTaken {
  stockDelta: Map<string, number>;
  stockAfter: Map<string, number>;
  lots: Array<LineBatch & { product_id: string }>;
  moves: BatchMoveOf[];
  newBatches: BatchRow[];
}

export function takeStock(sale: SaleDraft, lines: SaleLine[], saleId: string): StockTaken {
  const taken: StockTaken = { stockDelta: new Map(), stockAfter: new Map(), lots: [], moves: [], newBatches: [] };
  const tracked: SaleLine[] = [];
  // In product-id order, as the rows were locked: the first short line online is the one named.
  for (const l of perProduct(lines).sort((a, b) => a.product_id.localeCompare(b.product_id))) {
    const p = sale.set.products.get(l.product_id)!;
    if (p.is_service === 1) continue;
    const current = sale.set.stock.get(p.id) ?? 0;
    if (sale.set.online && current < l.qty) throw new InsufficientStockError(p.name, fromCount(current, p.unit), `lines.${l.index}.qty`);
    if (p.track_batches === 1) tracked.push(l);
    else takeUnits(sale, taken, l, current);
  }
  const breaches: FefoBreach[] = [];
  for (const l of tracked) breaches.push(...takeLots(sale, taken, l, saleId));
  enforce(sale, breaches);
  return taken;
}

/**
 * One line per product, its counts summed: a product sold both by the pack and loose (a carton and
 * three pieces) takes its stock, and its lots, once for the two (named by the first line).
 */
function perProduct(lines: SaleLine[]): SaleLine[] {
  const merged = new Map<string, SaleLine>();
  for (const l of lines) {
    const seen = merged.get(l.product_id);
    merged.set(l.product_id, seen ? { ...seen, qty: seen.qty + l.qty } : { index: l.index, product_id: l.product_id, qty: l.qty });
  }
  return [...merged.values()];
}

/** A product without lots: its level falls by the line, below zero offline (an oversold conflict). */
function takeUnits(sale: SaleDraft, taken: StockTaken, l: SaleLine, current: number) {
  const p = sale.set.products.get(l.product_id)!;
  const after = current - l.qty;
  const [before, qty, left] = [current, l.qty, after].map((n) => fromCount(n, p.unit));
  if (after < 0)
    sale.conflicts.push({
      kind: 'oversold',
      product_id: p.id,
      message: `${p.name} sold ${qty} with ${before} in stock`,
      detail: { stock_before: before, qty, stock_after: left },
    });
  taken.stockDelta.set(p.id, -l.qty);
  taken.stockAfter.set(p.id, after);
}

/** A batch-tracked product: the lots its policy takes, and its level falls by the sellable units that left. */
function takeLots(sale: SaleDraft, taken: StockTaken, l: SaleLine, saleId: string): FefoBreach[] {
  const { set } = sale;
  const p = set.products.get(l.product_id)!;
  const lots = sale.policy.takeLots({
    orgId: set.orgId,
    storeId: set.storeId,
    now: sale.now,
    today: sale.today,
    line: l,
    product: p,
    batches: set.batches.get(p.id)!,
    batchesRead: set.batchesRead,
    preferred: sale.request.opts.lineBatches?.get(p.id),
    sale: { transactionId: saleId, userId: sale.actor.userId },
  });
  taken.moves.push(...lots.moves);
  taken.lots.push(...lots.lots);
  if (lots.newBatch) taken.newBatches.push(lots.newBatch);
  const current = set.stock.get(p.id) ?? 0;
  taken.stockDelta.set(p.id, -lots.sellableOut);
  taken.stockAfter.set(p.id, current - lots.sellableOut);
  return lots.breaches;
}

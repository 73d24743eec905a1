/**
 * The lots a sale's line of a batch-tracked product takes its units from, for the sale pipeline's
 * `takeStock` stage (pos/sale/take-stock.ts) through pharmacy's sale policy: the till's lots first
 * on a push, then FEFO (`allocateFefo`, the rule the till applies too). Offline, units beyond every
 * lot go on the unallocated lot, and units kept on a lot that is no longer sellable are not stock:
 * the level moves by the sellable units that left. Works in memory; the moves are written with the sale.
 */
import { allocateFefo, type FefoBreach, type LineBatch, type LineBatchInput, type Unit } from '@duka/shared';
import type { BatchRow } from '../../../db/tables/batches.table.js';
import { type BatchMoveOf, UNALLOCATED_LOT, unallocatedRow } from './batch-ledger.js';
import { sameLotNumber } from './batches.queries.js';

export interface LotsWanted {
  orgId: string;
  storeId: string;
  now: number;
  /** The day the sale was made: a lot past its expiry that day is not sold from. */
  today: string;
  line: { index: number; qty: number };
  product: { id: string; name: string; unit: Unit };
  /** The product's main batches in the store, as planned so far. */
  batches: BatchRow[];
  /** Each batch as read (the ledger applies its moves from there; later moves of it chain on). */
  batchesRead: ReadonlyMap<string, BatchRow>;
  /** Pushed: the lots the till took the units from. */
  preferred?: LineBatchInput[];
  sale: { transactionId: string; userId: string };
}

export interface LotsTaken {
  breaches: FefoBreach[];
  lots: Array<LineBatch & { product_id: string }>;
  moves: BatchMoveOf[];
  /** The unallocated lot, when the line is the first to need it. */
  newBatch?: BatchRow;
  /** The sellable units that left: what the product's stock level falls by. */
  sellableOut: number;
}

export function takeSaleLots(w: LotsWanted): LotsTaken {
  const result = allocateFefo({
    index: w.line.index,
    product: { product_id: w.product.id, name: w.product.name, unit: w.product.unit },
    qty: w.line.qty,
    batches: w.batches.map((b) => ({
      batch_id: b.id,
      lot_number: b.lot_number,
      expiry_date: b.expiry_date,
      qty_on_hand: b.qty_on_hand,
      status: b.status,
      received_at: b.received_at,
    })),
    today: w.today,
    preferred: w.preferred,
  });
  const taken: LotsTaken = { breaches: result.breaches, lots: [], moves: [], sellableOut: 0 };
  for (const a of result.allocations) {
    const batch = w.batches.find((b) => b.id === a.batch_id)!;
    taken.moves.push(dispensed(w, batch, a.qty));
    taken.lots.push({ ...a, product_id: w.product.id });
    if (batch.status === 'sellable') taken.sellableOut += a.qty;
  }
  if (result.shortfall > 0) takeUnallocated(w, taken, result.shortfall);
  return taken;
}

/** Units no lot held (an offline sale): taken from the unallocated lot, made when first needed. */
function takeUnallocated(w: LotsWanted, taken: LotsTaken, qty: number) {
  let unallocated = w.batches.find((b) => sameLotNumber(b.lot_number, UNALLOCATED_LOT));
  if (!unallocated) {
    unallocated = unallocatedRow(w.orgId, w.storeId, w.product.id, w.now);
    taken.newBatch = unallocated;
  }
  taken.moves.push(dispensed(w, unallocated, qty));
  taken.lots.push({
    batch_id: unallocated.id,
    lot_number: unallocated.lot_number,
    expiry_date: unallocated.expiry_date,
    qty,
    product_id: w.product.id,
  });
  taken.sellableOut += qty;
}

const dispensed = (w: LotsWanted, batch: BatchRow, qty: number): BatchMoveOf => ({
  batch: w.batchesRead.get(batch.id) ?? batch,
  move: { kind: 'dispensed', transactionId: w.sale.transactionId, userId: w.sale.userId, qty: -qty },
});

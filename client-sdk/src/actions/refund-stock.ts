/**
 * The goods of a part refunded on the till go back to the replica's shelf (issue 51), as the
 * server puts them back: exactly the counts refunded (0.25 kg is 250), a batch-tracked product's
 * units to the lots they came from, first-taken first (shared `refundLots`). Units back on a lot no
 * longer sellable are not stock again (back on a recalled lot, they are recalled).
 */
import { refundLots, toCount, type Unit } from '@duka/shared';
import type { LocalTrx } from '../local/db.js';
import { moveBatches, moveStock, type Undo } from '../local/effects.js';
import * as reads from '../reads.js';
import type { Receipt } from '../types.js';

type Taken = { line: { product_id: string; unit: Unit }; count: number };

export async function restoreUnits(trx: LocalTrx, sale: Receipt, taken: readonly Taken[], undo: Undo): Promise<void> {
  // Per product: what earlier refunds took of it (whichever of its lines) and what comes back now.
  const part = new Map<string, { from: number; count: number; unit: Unit }>();
  for (const t of taken) {
    const p = part.get(t.line.product_id) ?? { from: 0, count: 0, unit: t.line.unit };
    part.set(t.line.product_id, { ...p, count: p.count + t.count });
  }
  for (const l of sale.lines) {
    const p = part.get(l.product_id);
    if (p) p.from += toCount(l.refunded_qty ?? 0, p.unit);
  }
  const lots = sale.lines.flatMap((l) => (l.batches ?? []).map((b) => ({ ...b, product_id: l.product_id, unit: l.unit ?? 'piece' })));
  const back = refundLots(lots, (b) => toCount(b.qty, b.unit), part);
  for (const [productId, p] of part) {
    const product = await reads.productById(trx, productId);
    if (!product || product.is_service) continue;
    const mine = back.filter(([b]) => b.product_id === productId);
    let counts = p.count;
    if (mine.length) {
      const sellable = new Set((await reads.batches(trx, { product_id: productId, status: 'sellable' })).map((b) => b.id));
      counts = mine.filter(([b]) => sellable.has(b.batch_id)).reduce((n, [, c]) => n + c, 0);
      // The replica's lots hold counts, as its levels do.
      const deltas = Object.fromEntries(mine.map(([b, c]) => [b.batch_id, c]));
      await moveBatches(trx, deltas);
      for (const [id, d] of Object.entries(deltas)) undo.batches![id] = (undo.batches![id] ?? 0) - d;
    }
    await moveStock(trx, productId, counts);
    undo.stock![productId] = (undo.stock![productId] ?? 0) - counts;
  }
}

/**
 * `writeSale`, the last stage: in the sale's one local transaction, its shift movement, the local
 * sale, the stock, lots and credit it moves, and the queued `sale.create` with the undo that takes
 * those effects back if the server refuses it.
 */
import { saleStatusOf } from '@duka/shared';
import type { CompiledQuery } from 'kysely';
import type { Receipt } from '../../types.js';
import { compiledOnce } from '../../local/compiled.js';
import type { LocalTrx } from '../../local/db.js';
import { runInOrder } from '../../local/batch.js';
import { batchMoves, moveOutstanding, stockMoves, type Undo } from '../../local/effects.js';
import { pendingCounted, pendingOf, queuedInsert } from '../../queue.js';
import type { ActionCtx } from '../context.js';
import { partMovements } from '../../local/shift-movements.js';
import type { PlannedSale, QueuedSale } from './draft.js';
import { queuedPayload } from './payload.js';
import { localReceipt } from './receipt.js';

const insertSale = compiledOnce(['id', 'created_at', 'client_receipt_number', 'status', 'data'], (db, v) =>
  db.insertInto('transactions').values({ ...v, number: null, receipt_number: null, sync_state: 'pending' }),
);

/**
 * `queue`: queues the sale as part of another mutation (an exchange's) instead of a `sale.create` of
 * its own. Without it the sale is its transaction's last work: its writes, the queue's pending count
 * after them (for the till's status) and the commit go to the storage together (`runInOrder`: in a
 * browser one message to the worker for all of them).
 */
export async function writeSale(
  trx: LocalTrx,
  ctx: ActionCtx,
  p: PlannedSale,
  queue?: (payload: QueuedSale, undo: Undo) => Promise<void>,
): Promise<{ receipt: Receipt; pending?: number }> {
  const { at } = p.sale;
  const source = ctx.online() ? 'online' : 'offline';
  const moved = p.shiftId ? partMovements(trx, p.shiftId, 'sale', p.tender.parts, at) : { ids: [] };
  const payload = queuedPayload(p, source);
  const createdAt = new Date(at).toISOString();
  const receipt = localReceipt(p, payload, source, createdAt);
  const { id, client_receipt_number, status } = receipt;
  const sale = insertSale.compile(trx, { id, created_at: createdAt, client_receipt_number, status, data: JSON.stringify(receipt) });
  const writes = [...(moved.insert ? [moved.insert] : []), sale];
  const undo = await moveLocally(trx, p, moved.ids, writes);
  if (queue) {
    await runInOrder(trx, writes);
    await queue(payload, undo);
    return { receipt };
  }
  writes.push(queuedInsert(trx, 'sale.create', payload, at, undo, p.number.seq).insert, pendingCounted(trx));
  const done = await runInOrder(trx, writes, { commit: true });
  return { receipt, pending: pendingOf(done[done.length - 1]!) };
}

/** The stock, lots and credit the sale moves on the till (added to `writes`), and the undo that moves them back. */
async function moveLocally(trx: LocalTrx, p: PlannedSale, movements: string[], writes: CompiledQuery[]): Promise<Undo> {
  const stock: Record<string, number> = {};
  const outstanding: Record<string, number> = {};
  const batches: Record<string, number> = {};
  const taken: Record<string, number> = {};
  for (const [productId, qty] of Object.entries(p.taken.stock)) {
    taken[productId] = -qty;
    stock[productId] = qty;
  }
  const upsert = stockMoves(trx, taken);
  if (upsert) writes.push(upsert);
  const fromBatches: Record<string, number> = {};
  for (const b of [...p.taken.lots.values()].flat()) {
    fromBatches[b.batch_id] = -b.qty;
    batches[b.batch_id] = b.qty;
  }
  writes.push(...batchMoves(trx, fromBatches));
  const { customer } = p.sale;
  // A credit part opens the tab for its amount only (the whole total for a credit sale); it reads
  // the customer's row, so it runs now, ahead of the other writes, in the same transaction.
  const credit = p.tender.parts.find((t) => saleStatusOf(t.method) === 'credit');
  if (credit) {
    await moveOutstanding(trx, customer!.id, credit.amount);
    outstanding[customer!.id] = -credit.amount;
  }
  return { stock, outstanding, batches, rejectSale: p.id, movements };
}

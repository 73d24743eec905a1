/**
 * `writeSale`, the last stage: in the sale's one local transaction, its shift movement, the local
 * sale, the stock, lots and credit it moves, and the queued `sale.create` with the undo that takes
 * those effects back if the server refuses it.
 */
import { saleStatusOf } from '@duka/shared';
import type { Receipt } from '../../types.js';
import { compiledOnce } from '../../local/compiled.js';
import type { LocalTrx } from '../../local/db.js';
import { moveBatches, moveOutstanding, moveStocks, type Undo } from '../../local/effects.js';
import { enqueue } from '../../queue.js';
import type { ActionCtx } from '../context.js';
import { recordParts } from '../../local/shift-movements.js';
import type { PlannedSale, QueuedSale } from './draft.js';
import { queuedPayload } from './payload.js';
import { localReceipt } from './receipt.js';

const insertSale = compiledOnce(['id', 'created_at', 'client_receipt_number', 'status', 'data'], (db, v) =>
  db.insertInto('transactions').values({ ...v, number: null, receipt_number: null, sync_state: 'pending' }),
);

/** `queue`: queues the sale as part of another mutation (an exchange's) instead of a `sale.create` of its own. */
export async function writeSale(
  trx: LocalTrx,
  ctx: ActionCtx,
  p: PlannedSale,
  queue?: (payload: QueuedSale, undo: Undo) => Promise<void>,
): Promise<Receipt> {
  const { at } = p.sale;
  const source = ctx.online() ? 'online' : 'offline';
  const movements = p.shiftId ? await recordParts(trx, p.shiftId, 'sale', p.tender.parts, at) : [];
  const payload = queuedPayload(p, source);
  const createdAt = new Date(at).toISOString();
  const receipt = localReceipt(p, payload, source, createdAt);
  const { id, client_receipt_number, status } = receipt;
  await insertSale(trx, { id, created_at: createdAt, client_receipt_number, status, data: JSON.stringify(receipt) });
  const undo = await moveLocally(trx, p, movements);
  if (queue) await queue(payload, undo);
  else await enqueue(trx, 'sale.create', payload, at, undo, p.number.seq);
  return receipt;
}

/** The stock, lots and credit the sale moves on the till, and the undo that moves them back. */
async function moveLocally(trx: LocalTrx, p: PlannedSale, movements: string[]): Promise<Undo> {
  const stock: Record<string, number> = {};
  const outstanding: Record<string, number> = {};
  const batches: Record<string, number> = {};
  const taken: Record<string, number> = {};
  for (const [productId, qty] of Object.entries(p.taken.stock)) {
    taken[productId] = -qty;
    stock[productId] = qty;
  }
  await moveStocks(trx, taken);
  const fromBatches: Record<string, number> = {};
  for (const b of [...p.taken.lots.values()].flat()) {
    fromBatches[b.batch_id] = -b.qty;
    batches[b.batch_id] = b.qty;
  }
  await moveBatches(trx, fromBatches);
  const { customer } = p.sale;
  // A credit part opens the tab for its amount only (the whole total for a credit sale).
  const credit = p.tender.parts.find((t) => saleStatusOf(t.method) === 'credit');
  if (credit) {
    await moveOutstanding(trx, customer!.id, credit.amount);
    outstanding[customer!.id] = -credit.amount;
  }
  return { stock, outstanding, batches, rejectSale: p.id, movements };
}

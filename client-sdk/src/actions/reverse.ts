/**
 * Refund and void on the till, queued as `sale.refund` / `sale.void`, by the server's rules
 * (`checkReversal`, `returnedStockGoesTo`). Stock comes back (goods the server quarantines do not
 * move the shelf level) and what a credit sale still owed is cancelled.
 */
import {
  checkReversal,
  type RefundLineInput,
  type Reversal,
  returnedStockGoesTo,
  SaleRefundPayload,
  SaleReversePayload,
  toCents,
  unitScale,
} from '@duka/shared';
import { TillError } from '../errors.js';
import { getMeta } from '../local/meta.js';
import type { LocalTrx } from '../local/db.js';
import { moveBatches, moveOutstanding, moveStock, snapshot, type Undo } from '../local/effects.js';
import { enqueue } from '../queue.js';
import * as reads from '../reads.js';
import type { Receipt } from '../types.js';
import { type ActionCtx, invalid, may, shopOf } from './context.js';
import { cashierShift, recordParts } from '../local/shift-movements.js';
import { requireServerProtocol } from '../sync/protocol.js';
import { partlyRefunded, partsOf, refundPartOnTill } from './refund-part.js';

/** The sale to reverse as `checkReversal` judges it (a refusal throws), its credit tabs and where its goods go. */
export async function reversible(trx: LocalTrx, ctx: ActionCtx, move: Reversal, transactionId: string) {
  const { org, store } = await shopOf(trx);
  const found = await reads.transactionById(trx, transactionId);
  const tabs = found?.status === 'credit' ? (await reads.creditTabs(trx)).filter((t) => t.transaction_id === found.id) : [];
  const user = await getMeta(trx, 'user');
  const breach = checkReversal({
    move,
    may_refund: await may(trx, 'refund', user),
    role: user?.role,
    own_sale: !!user && found?.cashier_id === user.id,
    age_ms: found ? ctx.now() - Date.parse(found.created_at) : undefined,
    sale: found && { status: found.status, tab_paid: tabs.some((t) => t.paid_amount > 0), partly_refunded: partlyRefunded(found) },
  });
  if (breach) throw new TillError(breach.code, breach.message, breach.field);
  // checkReversal refuses a sale that is not there.
  return { sale: found!, tabs, into: returnedStockGoesTo(move, org.business_type, store.outlet_type) };
}

/** `lines` (a refund only, issue 51): refund these lines, these quantities; absent, the whole sale (or all that is left of it). */
export async function reverseSale(
  ctx: ActionCtx,
  move: Reversal,
  transactionId: string,
  reason: string,
  lines?: RefundLineInput[],
): Promise<Receipt> {
  const input = { transaction_id: transactionId, reason, ...(lines ? { lines } : {}) };
  const parsed = (move === 'refund' ? SaleRefundPayload : SaleReversePayload).safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  const receipt = await ctx.db.transaction().execute(async (trx) => {
    // A refund of part of a sale is protocol 2's: a version-1 server would refund the whole sale.
    if (lines) await requireServerProtocol(trx, 2, 'a refund of part of a sale');
    const { sale, tabs, into } = await reversible(trx, ctx, move, transactionId);
    // Some lines, or the rest of a sale refunded in part: refund by refund, as the server records it.
    if (move === 'refund' && (lines || partlyRefunded(sale)))
      return refundPartOnTill(trx, sale, { reason: parsed.data.reason, lines, into, tabs, now: ctx.now() });

    const undo: Undo = {
      stock: {},
      outstanding: {},
      batches: {},
      restore: [{ table: 'transactions', id: sale.id, row: await snapshot(trx, 'transactions', sale.id) }],
    };
    const at = new Date(ctx.now()).toISOString();
    const changed: Receipt =
      move === 'refund'
        ? { ...sale, status: 'refunded', refund_reason: parsed.data.reason, refunded_at: at }
        : { ...sale, status: 'void', void_reason: parsed.data.reason, voided_at: at };
    await trx
      .updateTable('transactions')
      .set({ status: changed.status, data: JSON.stringify(changed) })
      .where('id', '=', sale.id)
      .execute();

    if (into === 'shelf') {
      for (const l of sale.lines) {
        const product = await reads.productById(trx, l.product_id);
        if (!product || product.is_service) continue;
        // A batch-tracked line goes back to the lots it came from, as the server puts it back: units
        // are stock again only on a lot still sellable (back on a recalled lot, they are recalled).
        const lots = l.batches ?? [];
        const sellable = new Set((await reads.batches(trx, { product_id: l.product_id, status: 'sellable' })).map((b) => b.id));
        const back = lots.length ? lots.filter((b) => sellable.has(b.batch_id)).reduce((n, b) => n + b.qty, 0) : l.qty;
        // The replica's level and lots are in counts; the receipt's quantities are in the unit (issue 51).
        const countOf = (qty: number) => Math.round(qty * unitScale(product.unit ?? 'piece'));
        const counts = countOf(back);
        await moveStock(trx, l.product_id, counts);
        undo.stock![l.product_id] = (undo.stock![l.product_id] ?? 0) - counts;
        for (const b of lots) undo.batches![b.batch_id] = (undo.batches![b.batch_id] ?? 0) - countOf(b.qty);
        await moveBatches(trx, Object.fromEntries(lots.map((b) => [b.batch_id, countOf(b.qty)])));
      }
    }
    if (sale.status === 'credit' && sale.customer_id) {
      // What is still owed on the sale: its tab's balance when the replica has it, else the whole total.
      // (A split sale's tab is its credit part's.)
      const credit = sale.payments?.find((p) => p.method === 'Credit');
      const owed = tabs.length ? tabs.reduce((s, t) => s + toCents(t.balance), 0) : toCents(credit?.amount ?? sale.total);
      await moveOutstanding(trx, sale.customer_id, -owed);
      undo.outstanding![sale.customer_id] = owed;
      for (const t of tabs) {
        undo.restore!.push({ table: 'credit_tabs', id: t.id, row: await snapshot(trx, 'credit_tabs', t.id) });
        await trx.deleteFrom('credit_tabs').where('id', '=', t.id).execute();
      }
    }
    // The money goes back in the shift open now, whichever shift took it: each part by its method, as paid.
    const shiftId = await cashierShift(trx);
    undo.movements = shiftId ? await recordParts(trx, shiftId, 'reversal', partsOf(sale), ctx.now()) : [];
    const payload = { transaction_id: parsed.data.transaction_id, reason: parsed.data.reason, ...(shiftId ? { shift_id: shiftId } : {}) };
    await enqueue(trx, move === 'refund' ? 'sale.refund' : 'sale.void', payload, ctx.now(), undo);
    return changed;
  });
  ctx.queued();
  return receipt;
}

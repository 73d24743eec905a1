/**
 * A part of a sale refunded on the till, offline (issue 51: 0.25 kg of a 1.25 kg line), by the
 * server's own shared rules (docs/pos.md "Refunding part of a sale"): which lines (`refundLinesWanted`),
 * the money per line (`refundShare`), which tender parts give it (`refundTender`), which lots the
 * units go back to (`refundLots`). Also the rest of a sale refunded in part, when refunded with no
 * lines. Queued as `sale.refund` with the lines; the undo takes it all back if the server refuses.
 */
import {
  type CreditTab,
  fromCents,
  fromCount,
  type PaymentMethod,
  type RefundLineInput,
  refundLinesWanted,
  refundShare,
  refundTender,
  toCents,
  toCount,
  type Unit,
} from '@duka/shared';
import { TillError } from '../errors.js';
import type { LocalTrx } from '../local/db.js';
import { moveOutstanding, snapshot, type Undo } from '../local/effects.js';
import { cashierShift, recordParts } from '../local/shift-movements.js';
import { enqueue } from '../queue.js';
import type { Receipt } from '../types.js';
import { restoreUnits } from './refund-stock.js';

export interface TillPartRefund {
  reason: string;
  /** Absent: all that is left of a sale refunded in part. */
  lines?: RefundLineInput[];
  /** Where refunded goods go (`returnedStockGoesTo`): the shelf, or a pharmacy's quarantine (no shelf move). */
  into: 'shelf' | 'quarantine';
  /** The sale's credit tabs in the replica. */
  tabs: CreditTab[];
  now: number;
  /** Queues the refund instead of a `sale.refund` of its own (an exchange's, exchange.ts), told its tender parts (cents). */
  queue?: (q: { payload: Record<string, unknown>; undo: Undo; parts: Array<{ method: PaymentMethod; amount: number }> }) => void;
}

/** Whether part of the sale has been refunded already (it is then refunded, not voided, and refunded line by line). */
export const partlyRefunded = (sale: Receipt) => (sale.refunded_total ?? 0) > 0 || sale.lines.some((l) => (l.refunded_qty ?? 0) > 0);

/** A sale's parts in cents: as the server answered them, or its one method (a receipt made before split tender). */
export const partsOf = (sale: Receipt): Array<{ method: PaymentMethod; amount: number }> =>
  sale.payments?.length
    ? sale.payments.map((p) => ({ method: p.method, amount: toCents(p.amount) }))
    : [{ method: sale.payment_method as PaymentMethod, amount: toCents(sale.total) }];

/** The receipt's lines as the shared rules read them: counts, and what earlier refunds took. */
function soldLines(sale: Receipt) {
  return sale.lines.map((l, index) => {
    const unit: Unit = l.unit ?? 'piece';
    return {
      index,
      product_id: l.product_id,
      pack_id: l.pack?.id ?? null,
      unit,
      name: l.product_name,
      qty: toCount(l.qty, unit),
      refunded: toCount(l.refunded_qty ?? 0, unit),
      line_total: toCents(l.line_total),
      discount: toCents(l.discount),
      tax: toCents(l.tax),
    };
  });
}

/**
 * Which tender parts give `amount` back. The till does not keep what each part gave back before:
 * earlier refunds' `refunded_total` is split again by the same rule from the sale's parts (exact
 * unless the tab took a payment between two refunds; the server's split rules after the push).
 */
function tenderBack(sale: Receipt, amount: number, tab: CreditTab | undefined) {
  const parts = partsOf(sale);
  const credit = parts.find((p) => p.method === 'Credit')?.amount ?? 0;
  const owedAtFirst = tab ? toCents(tab.amount) - toCents(tab.paid_amount) : credit;
  const earlier = refundTender(
    toCents(sale.refunded_total ?? 0),
    parts.map((p) => ({ ...p, back: 0 })),
    owedAtFirst,
  ).parts;
  const back = (m: PaymentMethod) => earlier.find((p) => p.method === m)?.amount ?? 0;
  const owed = tab ? (tab.status === 'written_off' ? 0 : toCents(tab.balance)) : Math.max(0, owedAtFirst - back('Credit'));
  return refundTender(
    amount,
    parts.map((p) => ({ ...p, back: back(p.method) })),
    sale.status === 'credit' ? owed : 0,
  );
}

export async function refundPartOnTill(trx: LocalTrx, sale: Receipt, r: TillPartRefund): Promise<Receipt> {
  const sold = soldLines(sale);
  const judged = refundLinesWanted(sold, (l) => l.qty - l.refunded, r.lines);
  if ('fault' in judged) throw new TillError(judged.fault.code, `${judged.fault.field} ${judged.fault.message}`, judged.fault.field);
  const taken = judged.wanted.map((w) => ({ ...w, ...refundShare(w.line, w.count) }));
  const amount = taken.reduce((s, t) => s + t.amount, 0);
  const tab = r.tabs[0];
  const { parts, tab: cleared } = tenderBack(sale, amount, tab);

  const undo: Undo = {
    stock: {},
    outstanding: {},
    batches: {},
    restore: [{ table: 'transactions', id: sale.id, row: await snapshot(trx, 'transactions', sale.id) }],
  };
  if (r.into === 'shelf') await restoreUnits(trx, sale, taken, undo);

  const backNow = new Map(taken.map((t) => [t.line.index, t.count]));
  const lines = sale.lines.map((l, i) => {
    const s = sold[i]!;
    return { ...l, refunded_qty: fromCount(s.refunded + (backNow.get(i) ?? 0), s.unit) };
  });
  const complete = sold.every((s) => s.refunded + (backNow.get(s.index) ?? 0) >= s.qty);
  const at = new Date(r.now).toISOString();
  const changed: Receipt = {
    ...sale,
    lines,
    refunded_total: fromCents(toCents(sale.refunded_total ?? 0) + amount),
    ...(complete ? { status: 'refunded', refund_reason: r.reason, refunded_at: at } : {}),
  };
  await trx
    .updateTable('transactions')
    .set({ status: changed.status, data: JSON.stringify(changed) })
    .where('id', '=', sale.id)
    .execute();
  await settleTab(trx, sale, { tab, cleared, complete, tabs: r.tabs }, undo);

  // The money goes back in the shift open now, each part by its method; the refund counts once, under
  // the first of its methods by name, as the server's X report counts it.
  const shiftId = await cashierShift(trx);
  const byName = [...parts].sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
  undo.movements = shiftId ? await recordParts(trx, shiftId, 'reversal', byName, r.now) : [];
  const payload = {
    transaction_id: sale.id,
    reason: r.reason,
    ...(r.lines ? { lines: r.lines } : {}),
    ...(shiftId ? { shift_id: shiftId } : {}),
  };
  if (r.queue) r.queue({ payload, undo, parts });
  else await enqueue(trx, 'sale.refund', payload, r.now, undo);
  return changed;
}

/**
 * A credit sale's tab falls by what the refund cleared of it, and what the customer owes with it;
 * the refund that brings the last count back closes the tab, as a whole refund does.
 */
async function settleTab(
  trx: LocalTrx,
  sale: Receipt,
  t: { tab: CreditTab | undefined; cleared: number; complete: boolean; tabs: CreditTab[] },
  undo: Undo,
) {
  if (sale.status !== 'credit' || !sale.customer_id) return;
  const owedBefore = t.tab ? toCents(t.tab.balance) : 0;
  const owes = t.complete && t.tab ? Math.max(owedBefore, t.cleared) : t.cleared;
  if (owes > 0) {
    await moveOutstanding(trx, sale.customer_id, -owes);
    undo.outstanding![sale.customer_id] = owes;
  }
  for (const tab of t.tabs) {
    undo.restore!.push({ table: 'credit_tabs', id: tab.id, row: await snapshot(trx, 'credit_tabs', tab.id) });
    if (t.complete) {
      await trx.deleteFrom('credit_tabs').where('id', '=', tab.id).execute();
      continue;
    }
    const balance = fromCents(Math.max(0, toCents(tab.balance) - t.cleared));
    const data: CreditTab = { ...tab, balance, ...(balance === 0 ? { status: 'written_off' as const } : {}) };
    await trx
      .updateTable('credit_tabs')
      .set({ data: JSON.stringify(data) })
      .where('id', '=', tab.id)
      .execute();
  }
}

/**
 * A part of a sale refunded (issue 51: 0.25 kg of a 1.25 kg line; docs/pos.md "Refunding part of a
 * sale"). Called by the refund (sale-state.ts) inside its transaction once the rules and the drawer
 * are settled: the money per line and per tender part is the shared `refundShare` and
 * `refundTender`; the stock comes back by exactly the counts refunded; the sale stays sold until
 * its last count is back, then it is `refunded` as a whole refund leaves it.
 */
import {
  fromCents,
  fromCount,
  type PaymentMethod,
  type RefundLineInput,
  refundLinesWanted,
  refundQtyText,
  refundShare,
  refundTender,
  returnedStockGoesTo,
  type Transaction,
} from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError, ServiceError, ValidationError } from '../../../lib/errors.js';
import { cancelCreditTab, reduceCreditTab, tabForTransaction } from '../../credits/credits.exports.js';
import { lockStock, returnSaleLots } from '../../pharmacy/pharmacy.exports.js';
import { changeStockLevel } from '../../stock-levels/stock-levels.exports.js';
import { findStoreTransaction, quarantineSaleUnits, salePayments, saleOutlet, withLines } from '../pos.queries.js';
import {
  addToSaleRefunds,
  claimSoldSale,
  insertRefund,
  markRefunded,
  refundableLines,
  refundedByLine,
  refundedByMethod,
} from '../refunds.queries.js';

export interface PartRefund {
  reason: string;
  shiftId: string | null;
  /** Absent: everything not yet refunded. */
  lines?: RefundLineInput[];
  /** Told the refund's money and its tender parts (cents): an exchange pays its new sale with them. */
  given?: (refund: { amount: number; parts: Array<{ method: PaymentMethod; amount: number }>; shiftId: string | null }) => void;
}

type Line = Awaited<ReturnType<typeof refundableLines>>[number];
type Done = Map<string, { qty: number; amount: number }>;
type Taken = { line: Line; count: number; amount: number; tax: number };

const left = (line: Line, done: Done) => line.qty - (done.get(line.id)?.qty ?? 0);
const inUnit = (count: number, line: Line) => refundQtyText(count, line.unit);

/** The lines and counts asked for by the shared rule (400 naming a line the sale does not have or a bad quantity, 409 more than is left), or everything left. */
function linesWanted(lines: Line[], done: Done, asked?: RefundLineInput[]): Array<{ line: Line; count: number }> {
  const judged = refundLinesWanted(lines, (line) => left(line, done), asked);
  if ('wanted' in judged) return judged.wanted;
  const { code, field, message } = judged.fault;
  if (code === 'VALIDATION_ERROR') throw new ValidationError(field, message);
  throw new ServiceError(code, `${field} ${message}`, { errors: [{ code, field, message }] });
}

/** Which tender parts give `amount` back, and how much of the credit tab's balance that clears. */
async function tenderBack(tx: AuthedContext, sale: TransactionRow, amount: number) {
  const [paid, back, tab] = await Promise.all([
    salePayments(tx.db, [sale.org_id], [sale.id]),
    refundedByMethod(tx.db, sale),
    tabForTransaction(tx.db, sale),
  ]);
  const unpaid = tab && tab.status !== 'written_off' ? Math.max(0, tab.amount - tab.paid_amount - tab.written_off_amount) : 0;
  return refundTender(
    amount,
    paid.map((p) => ({ method: p.method, amount: p.amount, back: back.get(p.method) ?? 0 })),
    unpaid,
  );
}

/** Puts exactly the refunded counts back: batch-tracked ones to the lots they came from, the others on the shelf or into quarantine. */
async function restorePart(tx: AuthedContext, sale: TransactionRow, taken: Taken[], done: Done, all: Line[]) {
  const where = await saleOutlet(tx.db, sale);
  const into = returnedStockGoesTo('refund', where.business_type, where.outlet_type);
  const goods = taken.filter((t) => t.line.is_service !== 1);
  // Locked in product-id order, as every stock writer does (`taken` is in that order).
  for (const t of goods) await lockStock(tx, sale.org_id, sale.store_id, t.line.product_id);
  const part = new Map<string, { from: number; count: number }>();
  for (const t of goods) {
    const p = part.get(t.line.product_id) ?? { from: 0, count: 0 };
    part.set(t.line.product_id, { from: p.from, count: p.count + t.count });
  }
  // What earlier refunds took of each product, whichever of its lines they were of.
  for (const l of all) {
    const p = part.get(l.product_id);
    if (p) p.from += done.get(l.id)?.qty ?? 0;
  }
  const lotted = await returnSaleLots(tx, sale, 'refund', into === 'quarantine' ? 'quarantine' : 'stock', part);
  for (const t of goods.filter((g) => !lotted.has(g.line.product_id))) {
    if (into === 'quarantine') {
      await quarantineSaleUnits(tx.db, sale, t.line.product_id, t.count, tx.clock.now());
      continue;
    }
    const { org_id: orgId, store_id: storeId } = sale;
    await changeStockLevel(tx, {
      orgId,
      storeId,
      productId: t.line.product_id,
      productName: t.line.name,
      unit: t.line.unit,
      delta: t.count,
      allowNegative: true,
    });
  }
}

export async function refundPart(tx: AuthedContext, sale: TransactionRow, opts: PartRefund): Promise<Transaction> {
  const now = tx.clock.now();
  const userId = tx.actor!.userId;
  if (!(await claimSoldSale(tx.db, sale, now))) throw new InvalidStateError('this sale was already refunded or voided');
  const lines = await refundableLines(tx.db, sale);
  const done = await refundedByLine(tx.db, [sale.org_id], [sale.id]);
  const taken: Taken[] = linesWanted(lines, done, opts.lines).map(({ line, count }) => ({
    line,
    count,
    ...refundShare({ ...line, refunded: done.get(line.id)?.qty ?? 0 }, count),
  }));
  const amount = taken.reduce((s, t) => s + t.amount, 0);
  const { parts, tab } = await tenderBack(tx, sale, amount);
  opts.given?.({ amount, parts, shiftId: opts.shiftId });
  const rows = taken.map((t) => ({ line_id: t.line.id, product_id: t.line.product_id, qty: t.count, amount: t.amount, tax: t.tax }));
  const refundId = await insertRefund(tx.db, { sale, shiftId: opts.shiftId, reason: opts.reason, userId, now, lines: rows, parts });
  await addToSaleRefunds(
    tx.db,
    sale,
    amount,
    rows.reduce((s, r) => s + r.tax, 0),
  );
  taken.sort((a, b) => (a.line.product_id < b.line.product_id ? -1 : a.line.product_id > b.line.product_id ? 1 : 0));
  await restorePart(tx, sale, taken, done, lines);
  if (tab > 0) await reduceCreditTab(tx, sale, tab);
  const complete = lines.every((l) => left(l, done) === taken.filter((t) => t.line.id === l.id).reduce((s, t) => s + t.count, 0));
  if (complete) {
    await markRefunded(tx.db, sale, { reason: opts.reason, now, userId, shiftId: opts.shiftId });
    if (sale.status === 'credit') await cancelCreditTab(tx, sale, 'sale refunded');
  }
  await announce(tx, sale, { refundId, amount, reason: opts.reason, complete, taken });
  const after = await findStoreTransaction(tx.db, { orgId: sale.org_id, storeId: sale.store_id }, sale.id);
  return (await withLines(tx.db, [after!]))[0]!;
}

/** The change, the event (`transaction.refunded` once the last part is back, else `transaction.partially_refunded`) and the audit line. */
async function announce(
  tx: AuthedContext,
  sale: TransactionRow,
  r: { refundId: string; amount: number; reason: string; complete: boolean; taken: Taken[] },
) {
  const { org_id: orgId, store_id: storeId } = sale;
  noteChange(tx, orgId, { entity: 'transaction', id: sale.id, storeId });
  const base = {
    transaction_id: sale.id,
    receipt_number: sale.receipt_number,
    customer_id: sale.customer_id,
    reason: r.reason,
    previous_status: sale.status,
  };
  await tx.events.publish(
    tx,
    r.complete
      ? { type: 'transaction.refunded', orgId, storeId, data: { ...base, total: fromCents(sale.total) } }
      : {
          type: 'transaction.partially_refunded',
          orgId,
          storeId,
          data: {
            ...base,
            refund_id: r.refundId,
            amount: fromCents(r.amount),
            lines: r.taken.map((t) => ({
              product_id: t.line.product_id,
              qty: fromCount(t.count, t.line.unit),
              unit: t.line.unit,
              amount: fromCents(t.amount),
            })),
          },
        },
  );
  const what = r.taken.map((t) => `${inUnit(t.count, t.line)} ${t.line.name}`).join(', ');
  await recordAudit(tx, {
    action: 'sale.refund',
    description: `Refunded ${what} of sale ${sale.receipt_number} (${fromCents(r.amount)} TZS): ${r.reason}`,
    entity: 'transaction',
    entityId: sale.id,
  });
}

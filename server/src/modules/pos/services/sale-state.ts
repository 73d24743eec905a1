/**
 * Refund and void (design §3): who may, from which state and where the goods go are the shared
 * `checkReversal` and `returnedStockGoesTo` (the till applies the same). Stock comes back in the
 * same transaction and what a credit sale still owes is cancelled.
 */
import {
  checkReversal,
  fromCents,
  type RefundLineInput,
  type RefundSaleInput,
  type Reversal,
  returnedStockGoesTo,
  type ReversalBreach,
  type Transaction,
} from '@duka/shared';
import { noteChange } from '../../../db/change-log.js';
import { withTransaction } from '../../../db/transaction.js';
import { withIdempotency } from '../../../lib/idempotency.js';
import { recordAudit } from '../../../lib/audit.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ForbiddenError, InvalidStateError, NotFoundError, type ServiceError } from '../../../lib/errors.js';
import { cancelCreditTab, tabForTransaction } from '../../credits/credits.exports.js';
import { changeStockLevel } from '../../stock-levels/stock-levels.exports.js';
import { lockStock, returnSaleLots } from '../../pharmacy/pharmacy.exports.js';
import { claimReversal, findStoreTransaction, quarantineSaleUnits, saleLineProducts, saleOutlet, withLines } from '../pos.queries.js';
import type { TransactionRow } from '../../../db/tables/pos.table.js';
import { hasPermission, requireStore } from '../../../lib/auth/authorize.js';
import { bookerOf, type NamedShift, shiftFor } from '../../tenancy/tenancy.exports.js';
import { type PartRefund, refundPart } from './refund-part.js';

/** A reversal rule's breach as the error the API answers (none of them names a field). */
function reversalError(b: ReversalBreach): ServiceError {
  if (b.code === 'FORBIDDEN') return new ForbiddenError(b.message);
  if (b.code === 'NOT_FOUND') return new NotFoundError('transaction');
  return new InvalidStateError(b.message);
}

/**
 * Where a reversal comes from: `shiftId` the drawer named (the till's open shift, or the one a REST
 * caller pays from); a till's push gives its `deviceId` and takes its shift `conflicts`.
 */
export interface ReversalSource extends NamedShift {
  at?: number;
  /** A refund of these lines only (issue 51); absent, the whole sale, or all that is left of a sale refunded in part. */
  lines?: RefundLineInput[];
  /** A refund of part of a sale tells its money and tender parts here (an exchange, exchange.ts). */
  given?: PartRefund['given'];
}

async function reverse(ctx: AuthedContext, id: string, move: Reversal, reason: string, opts: ReversalSource = {}): Promise<Transaction> {
  const { at, shiftId: named } = opts;
  const { orgId, storeId } = requireStore(ctx);
  return withTransaction(ctx, async (tx) => {
    const found = await findStoreTransaction(tx.db, { orgId, storeId }, id);
    const tab = found?.status === 'credit' ? await tabForTransaction(tx.db, found) : undefined;
    // Its own count of refunds of part (migration 0045) says whether it has any.
    const partly = Number(found?.part_refunds ?? 0) > 0;
    // The void's own time: a till's offline void is judged by when it was made, not when it arrived.
    const when = at ?? tx.clock.now();
    const breach = checkReversal({
      move,
      may_refund: hasPermission(ctx.actor, 'refund'),
      role: ctx.actor.role,
      own_sale: found?.cashier_id === ctx.actor.userId,
      age_ms: found ? when - found.created_at : undefined,
      sale: found && { status: found.status, tab_paid: (tab?.paid_amount ?? 0) > 0, partly_refunded: partly },
    });
    if (breach) throw reversalError(breach);
    // checkReversal refuses a sale that is not there.
    const sale = found!;
    const now = tx.clock.now();
    // The drawer that pays (docs/pos.md): the one named, else the caller's open shift, which may be a
    // later one than the sale's, else the sale's own while it is open and may (an owner's refund in
    // the back office comes out of the drawer that took the money), else none.
    const who = bookerOf(tx.actor!, opts.deviceId);
    const shiftId = await shiftFor(tx.db, { orgId, storeId }, who, { named, also: sale.shift_id, conflicts: opts.conflicts });
    // A part of the sale, or the rest of one refunded in part: recorded refund by refund (refund-part.ts).
    if (move === 'refund' && (opts.lines || partly)) return refundPart(tx, sale, { reason, shiftId, lines: opts.lines, given: opts.given });
    // Claim the state change first: a concurrent refund or void of the same sale finds nothing to update.
    const claimed = await claimReversal(tx.db, sale, move, { reason, now, userId: tx.actor!.userId, shiftId });
    if (!claimed) throw new InvalidStateError(`this sale was already ${move === 'refund' ? 'refunded or voided' : 'voided or refunded'}`);
    // A refund of part of it that committed while this waited for the sale's row: its goods are back already.
    if (Number(claimed.part_refunds) > 0) throw new InvalidStateError('part of this sale was refunded meanwhile; try again');
    await restoreStock(tx, sale, move);
    if (sale.status === 'credit') await cancelCreditTab(tx, sale, move === 'refund' ? 'sale refunded' : 'sale voided');
    noteChange(tx, orgId, { entity: 'transaction', id: sale.id, storeId });
    await tx.events.publish(tx, {
      type: move === 'refund' ? 'transaction.refunded' : 'transaction.voided',
      orgId,
      storeId,
      data: {
        transaction_id: sale.id,
        receipt_number: sale.receipt_number,
        total: fromCents(sale.total),
        customer_id: sale.customer_id,
        reason,
        previous_status: sale.status,
      },
    });
    await recordAudit(tx, {
      action: move === 'refund' ? 'sale.refund' : 'sale.void',
      description: `${move === 'refund' ? 'Refunded' : 'Voided'} sale ${sale.receipt_number} (${fromCents(sale.total)} TZS): ${reason}`,
      entity: 'transaction',
      entityId: sale.id,
    });
    return (await withLines(tx.db, [claimed]))[0]!;
  });
}

/** Put sold stock back, on the shelf or into quarantine until inspected. */
async function restoreStock(ctx: AuthedContext, sale: TransactionRow, move: Reversal) {
  const where = await saleOutlet(ctx.db, sale);
  const lines = await saleLineProducts(ctx.db, sale);
  const into = returnedStockGoesTo(move, where.business_type, where.outlet_type);
  // Every stock row this reversal moves is locked first, in product-id order, as every stock writer does.
  for (const l of lines) if (l.is_service !== 1) await lockStock(ctx, sale.org_id, sale.store_id, l.product_id);
  // Batch-tracked lines go back to the lots they came from; the others as before.
  const lotted = await returnSaleLots(ctx, sale, move, into === 'quarantine' ? 'quarantine' : 'stock');
  for (const l of lines.filter((x) => x.is_service !== 1 && !lotted.has(x.product_id))) {
    if (into === 'quarantine') {
      await quarantineSaleUnits(ctx.db, sale, l.product_id, l.qty, ctx.clock.now());
      continue;
    }
    await changeStockLevel(ctx, {
      orgId: sale.org_id,
      storeId: sale.store_id,
      productId: l.product_id,
      productName: l.name,
      delta: l.qty,
      allowNegative: true,
    });
  }
}

/** `source.lines`: refund only these (issue 51); absent, the whole sale as always. */
export const refundSale = (ctx: AuthedContext, id: string, reason: string, source: ReversalSource = {}) =>
  reverse(ctx, id, 'refund', reason, { ...source, at: undefined });
/** `source.at`: when the void was made (a till's offline void, clamped to the server's clock); default now. */
export const voidSale = (ctx: AuthedContext, id: string, reason: string, source: ReversalSource = {}) =>
  reverse(ctx, id, 'void', reason, { ...source, lines: undefined });

/**
 * `POST /pos/transactions/:id/refund`: the refund, kept with its Idempotency-Key (design §3) so the
 * same request sent twice refunds once; the second is answered the first's sale (`replayed`).
 */
export async function refundSaleOnce(
  ctx: AuthedContext,
  id: string,
  input: RefundSaleInput,
  key: string | undefined,
): Promise<{ body: Transaction; replayed: boolean }> {
  const { reason, shift_id, lines } = input;
  const route = 'POST /pos/transactions/:id/refund';
  const answer = await withIdempotency(ctx, { key, route, body: { id, input } }, async (tx) => ({
    status: 200,
    body: await refundSale(tx, id, reason, { shiftId: shift_id, lines }),
  }));
  return { body: answer.body as Transaction, replayed: answer.replayed };
}

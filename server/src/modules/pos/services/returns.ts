/**
 * POST /pos/returns (issue 52, docs/pos.md "Returns without a receipt"): goods back with no receipt,
 * for those with the refund permission. Each line is looked for among the store's sales of the
 * product in the days the customer names: the most recent with that much left to refund is refunded
 * for it (refund-part.ts: at the price paid, its money and drawer as any refund). A line with no such
 * sale comes back at the current price: its stock back on the shelf and the money paid out of the
 * drawer as an expense, both noted "return without a receipt". One transaction.
 */
import { fromCents, fromCount, lineAmount, type ReturnInput, type ReturnResult, toCount } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError, ValidationError } from '../../../lib/errors.js';
import { withIdempotency } from '../../../lib/idempotency.js';
import { createExpense } from '../../expenses/expenses.exports.js';
import { insertAdjustment, orgProductsById } from '../../inventory/inventory.exports.js';
import { changeStockLevel } from '../../stock-levels/stock-levels.exports.js';
import { refundedByLine, soldLinesOf } from '../refunds.queries.js';
import { refundSale } from './sale-state.js';
import { dateRange } from './transactions.js';

type Line = ReturnResult['lines'][number];

export async function returnOnce(ctx: AuthedContext, input: ReturnInput, key: string | undefined) {
  const answer = await withIdempotency(ctx, { key, route: 'POST /pos/returns', body: input }, async (tx) => ({
    status: 201,
    body: await returnGoods(tx, input),
  }));
  return { body: answer.body as ReturnResult, replayed: answer.replayed };
}

export async function returnGoods(ctx: AuthedContext, input: ReturnInput): Promise<ReturnResult> {
  const { orgId } = requireStore(ctx);
  const { from, to } = await dateRange(ctx, input);
  // Asked first, as the route declares it: the refund's own check would only come after the lookups.
  requirePermission(ctx, 'refund');
  return withTransaction(ctx, async (tx) => {
    const products = await orgProductsById(
      tx,
      orgId,
      input.lines.map((l) => l.product_id),
    );
    const out: Line[] = [];
    let cents = 0;
    const unmatched: Array<{ name: string; qty: number; unit: string; amount: number }> = [];
    for (const [i, l] of input.lines.entries()) {
      const product = products.get(l.product_id);
      if (!product) throw new NotFoundError('product');
      const count = toCount(l.qty, product.unit);
      if (!Number.isInteger(count) || count <= 0)
        throw new ValidationError(`lines.${i}.qty`, 'a product sold by the piece takes whole numbers');
      const sale = await saleWithLeft(tx, { from, to, productId: l.product_id, count });
      if (sale) {
        let amount = 0;
        await refundSale(tx, sale.id, `return without a receipt: ${input.reason}`, {
          shiftId: input.shift_id,
          lines: [{ product_id: l.product_id, qty: l.qty }],
          given: (g) => {
            amount = g.amount;
          },
        });
        cents += amount;
        out.push({
          product_id: l.product_id,
          qty: l.qty,
          amount: fromCents(amount),
          basis: 'sale',
          transaction_id: sale.id,
          receipt_number: sale.receipt_number,
        });
        continue;
      }
      const amount = lineAmount(product.selling_price, count, product.unit);
      const after = await changeStockLevel(tx, {
        orgId,
        storeId: requireStore(tx).storeId,
        productId: product.id,
        productName: product.name,
        delta: count,
        unit: product.unit,
        allowNegative: true,
      });
      await insertAdjustment(tx, {
        productId: product.id,
        qtyChange: count,
        qtyAfter: after,
        reason: 'return',
        note: `return without a receipt: ${input.reason}`,
      });
      cents += amount;
      unmatched.push({ name: product.name, qty: l.qty, unit: product.unit, amount });
      out.push({
        product_id: l.product_id,
        qty: fromCount(count, product.unit),
        amount: fromCents(amount),
        basis: 'current_price',
        transaction_id: null,
        receipt_number: null,
      });
    }
    const expenseId = unmatched.length ? await payOut(tx, input, unmatched) : null;
    const total = fromCents(cents);
    await recordAudit(tx, {
      action: 'sale.return',
      description: `Return without a receipt (${total} TZS): ${out.map((l) => `${l.qty} × ${products.get(l.product_id)!.name} ${l.basis === 'sale' ? `from sale ${l.receipt_number}` : 'at the current price'}`).join(', ')}: ${input.reason}`,
      entity: 'store',
      entityId: requireStore(tx).storeId,
    });
    return { lines: out, total, expense_id: expenseId };
  });
}

/** The store's most recent sale in the range with a loose line of the product and at least `count` of it left to refund. */
async function saleWithLeft(tx: AuthedContext, q: { from: number; to: number; productId: string; count: number }) {
  const { orgId, storeId } = requireStore(tx);
  const rows = await soldLinesOf(tx.db, { orgId, storeId }, q);
  const done = await refundedByLine(tx.db, [orgId], [...new Set(rows.map((r) => r.id))]);
  return rows.find((r) => Number(r.qty) - (done.get(r.line_id)?.qty ?? 0) >= q.count);
}

/** The lines with no sale found, paid out of the drawer as one expense that says what came back. */
async function payOut(tx: AuthedContext, input: ReturnInput, lines: Array<{ name: string; qty: number; unit: string; amount: number }>) {
  const what = lines.map((l) => `${l.qty}${l.unit === 'piece' ? ' ×' : ` ${l.unit}`} ${l.name}`).join(', ');
  const expense = await createExpense(
    tx,
    {
      title: `Return without a receipt: ${what}`.slice(0, 200),
      category: 'Other',
      amount: fromCents(lines.reduce((s, l) => s + l.amount, 0)),
      payment_method: input.payout_method ?? 'Cash',
      notes: `No sale of it found between ${input.date_from} and ${input.date_to}; at the current price. ${input.reason}`.slice(0, 1000),
    },
    { shiftId: input.shift_id },
  );
  return expense.id;
}

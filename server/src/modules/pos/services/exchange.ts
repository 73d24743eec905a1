/**
 * POST /pos/exchanges (issue 52, docs/pos.md "Exchanges"): items of a sale back and items out in one
 * transaction. The items back are a refund of part of the sale (refund-part.ts, its rules and its
 * drawer); the items out are a sale through the sale pipeline, paid first by that refund's parts
 * (`exchangeTender`: mirrored, so they cancel in every shift and report) and then by the difference
 * the customer pays. A difference given back leaves as the refund's own money, or pays off the tab.
 */
import {
  type Exchange,
  type ExchangeInput,
  exchangeTender,
  fromCents,
  type MoneyPart,
  mergeParts,
  type PaymentMethod,
  type SalePaymentInput,
  toCents,
} from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import { recordAudit } from '../../../lib/audit.js';
import { requirePermission, requireStore } from '../../../lib/auth/authorize.js';
import type { AuthedContext } from '../../../lib/context.js';
import { ConflictError, ValidationError } from '../../../lib/errors.js';
import { withIdempotency } from '../../../lib/idempotency.js';
import { recordCreditPayment } from '../../credits/credits.exports.js';
import { findStoreTransaction, withLines } from '../pos.queries.js';
import { planSales, recordSales } from '../sale/pipeline.js';
import { refundSale } from './sale-state.js';

type Given = { amount: number; parts: MoneyPart[]; shiftId: string | null };

/** The exchange, kept with its Idempotency-Key as a sale is: the same request twice exchanges once. */
export async function exchangeOnce(ctx: AuthedContext, input: ExchangeInput, key: string | undefined) {
  const answer = await withIdempotency(ctx, { key, route: 'POST /pos/exchanges', body: input }, async (tx) => ({
    status: 201,
    body: await exchange(tx, input),
  }));
  return { body: answer.body as Exchange, replayed: answer.replayed };
}

export async function exchange(ctx: AuthedContext, input: ExchangeInput): Promise<Exchange> {
  const scope = requireStore(ctx);
  // Asked first, as the route declares it: the refund's own check would only come after the lookups.
  requirePermission(ctx, 'refund');
  return withTransaction(ctx, async (tx) => {
    if (input.id && (await findStoreTransaction(tx.db, scope, input.id))) throw new ConflictError('a sale with this id exists already');
    const original = await findStoreTransaction(tx.db, scope, input.transaction_id);
    let given: Given | undefined;
    const returned = await refundSale(tx, input.transaction_id, `exchange: ${input.reason}`, {
      shiftId: input.shift_id,
      lines: input.back,
      given: (g) => {
        given = g;
      },
    });
    // refundSale answers only once the refund of part of the sale is written, which tells `given`.
    const refund = given!;
    const saleTotal = await priceOut(tx, input, original?.customer_id ?? null);
    const { applied, out } = exchangeTender(refund.parts, saleTotal, input.give_back);
    const difference = differenceParts(input, saleTotal - refund.amount);
    const payments = mergeParts<SalePaymentInput & MoneyPart>([
      ...applied.map((p) => ({ ...p, amount: fromCents(p.amount) })),
      ...difference.map((p) => ({ ...p, amount: fromCents(p.amount) })),
    ]);
    const [outcome] = await recordSales(tx, [
      {
        input: {
          id: input.id,
          lines: input.out,
          payments,
          customer_id: original?.customer_id ?? undefined,
          notes: `Exchange for sale ${original?.receipt_number ?? ''}`,
        },
        opts: { source: 'online', shiftId: refund.shiftId ?? undefined, mirrored: refund.parts },
      },
    ]);
    if (!outcome!.ok) throw outcome!.error;
    const toTab = input.give_back === 'tab' ? await payTab(tx, original?.customer_id ?? null, out, refund.shiftId) : 0;
    const settlement = [
      ...difference.map((p) => ({ method: p.method, amount: p.amount })),
      ...out.filter((p) => p.method !== 'Credit' && input.give_back !== 'tab').map((p) => ({ method: p.method, amount: -p.amount })),
    ];
    const sale = (await withLines(tx.db, [outcome!.sale.row]))[0]!;
    await recordAudit(tx, {
      action: 'sale.exchange',
      description: `Exchange on sale ${returned.receipt_number}: ${fromCents(refund.amount)} TZS back, ${fromCents(saleTotal)} TZS out: ${input.reason}`,
      entity: 'transaction',
      entityId: sale.id,
    });
    return {
      returned,
      sale,
      returned_total: fromCents(refund.amount),
      sale_total: fromCents(saleTotal),
      difference: fromCents(saleTotal - refund.amount),
      settlement: settlement.map((p) => ({ method: p.method, amount: fromCents(p.amount) })),
      to_tab: fromCents(toTab + out.filter((p) => p.method === 'Credit').reduce((s, p) => s + p.amount, 0)),
    };
  });
}

/** The new sale's total (cents), by the sale pipeline itself, planned and not written. */
async function priceOut(tx: AuthedContext & { pending: object }, input: ExchangeInput, customerId: string | null): Promise<number> {
  const { outcomes } = await planSales(tx, [
    { input: { lines: input.out, payment_method: 'Cash', customer_id: customerId ?? undefined }, opts: { source: 'online' } },
  ]);
  const planned = outcomes[0]!;
  if (!planned.ok) throw planned.error;
  return planned.sale.row.total;
}

/** What the customer pays of the difference (cents): none when the items back cover the items out. */
function differenceParts(input: ExchangeInput, owed: number): Array<MoneyPart & { reference?: string; phone?: string }> {
  if (owed <= 0) return [];
  if (input.payments) return input.payments.map((p) => ({ ...p, amount: toCents(p.amount) }));
  if (!input.payment_method)
    throw new ValidationError('payment_method', `the items out cost ${fromCents(owed)} TZS more: say how the difference is paid`);
  return [{ method: input.payment_method, amount: owed, reference: input.payment_reference, phone: input.payment_phone }];
}

/**
 * A till's exchange with `give_back: 'tab'` (pushed `sale.exchange`): the refund's parts the new sale
 * (`saleTotal` cents) did not take are paid into the sale's customer's tab, as online.
 */
export function payTabFromRefund(
  tx: AuthedContext,
  customerId: string | null,
  refundParts: MoneyPart[],
  saleTotal: number,
  shiftId: string | null,
) {
  return payTab(tx, customerId, exchangeTender(refundParts, saleTotal, 'tab').out, shiftId);
}

/** The difference given back pays off what the customer owes: the refund's money goes straight into their tab. */
async function payTab(tx: AuthedContext, customerId: string | null, out: MoneyPart[], shiftId: string | null): Promise<number> {
  if (!customerId) throw new ValidationError('give_back', 'the sale has no customer, so there is no tab to pay off');
  let paid = 0;
  for (const p of out.filter((x): x is MoneyPart & { method: Exclude<PaymentMethod, 'Credit'> } => x.method !== 'Credit')) {
    await recordCreditPayment(
      tx,
      customerId,
      { method: p.method, amount: fromCents(p.amount), note: 'exchange' },
      { shiftId: shiftId ?? undefined },
    );
    paid += p.amount;
  }
  return paid;
}

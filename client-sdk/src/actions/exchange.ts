/**
 * An exchange on the till, offline too (issue 52, docs/pos.md "Exchanges"): in one local transaction
 * the items back are refunded as `till.refund(id, reason, { lines })` refunds them (refund-part.ts) and
 * the items out sold through the sale's stages, paid first by that refund's parts (`exchangeTender`,
 * the server's rule) and then by the difference. Queued as ONE `sale.exchange` (protocol 4) carrying
 * both, which the server applies together; a refusal undoes both here.
 */
import {
  exchangeTender,
  fromCents,
  type MoneyPart,
  mergeParts,
  type PaymentMethod,
  type RefundLineInput,
  type SalePaymentInput,
  newId,
  type SettlementMethod,
} from '@duka/shared';
import { TillError } from '../errors.js';
import type { Undo } from '../local/effects.js';
import { enqueue } from '../queue.js';
import { requireServerProtocol } from '../sync/protocol.js';
import type { Receipt, SellInput } from '../types.js';
import type { ActionCtx } from './context.js';
import type { LocalTrx } from '../local/db.js';
import { payTabOnTill } from './customers.js';
import { refundPartOnTill } from './refund-part.js';
import { reversible } from './reverse.js';
import { saleStages as stage } from './sale/pipeline.js';
import { policyFor } from './sale/policy.js';
import { checkInput } from './sale/resolve-lines.js';

export interface ExchangeInput {
  /** The items coming back: lines of the sale, in the product's unit. */
  back: RefundLineInput[];
  /** The items going out, as a sale's lines. */
  out: SellInput['lines'];
  /** How the customer pays the difference when the items out cost more (or `payments`). */
  payment_method?: SettlementMethod;
  payments?: SalePaymentInput[];
  payment_reference?: string;
  payment_phone?: string;
  /**
   * When the items back are worth more: the method the difference goes out by first, or `tab`: it
   * pays off the sale's customer's tab (a credit payment of the same method and amount, recorded here
   * and queued inside the `sale.exchange`, so the drawer nets to nothing).
   */
  give_back?: SettlementMethod | 'tab';
}

export interface ExchangeReceipt {
  returned: Receipt;
  sale: Receipt;
  /** TZS: sale − returned (above 0 paid by the customer, below 0 given back). */
  difference: number;
}

type Queued = { payload: Record<string, unknown>; undo: Undo; parts: MoneyPart[] };

export async function exchangeOnTill(ctx: ActionCtx, transactionId: string, reason: string, x: ExchangeInput): Promise<ExchangeReceipt> {
  if (!reason?.trim()) throw new TillError('VALIDATION_ERROR', 'reason is required', 'reason');
  const out = await ctx.db.transaction().execute(async (trx) => {
    await requireServerProtocol(trx, 4, 'an exchange');
    const { sale: old, tabs, into } = await reversible(trx, ctx, 'refund', transactionId);
    let refund: Queued | undefined;
    const now = ctx.now();
    const returned = await refundPartOnTill(trx, old, {
      reason: `exchange: ${reason}`,
      lines: x.back,
      into,
      tabs,
      now,
      queue: (q) => {
        refund = q;
      },
    });
    const input: SellInput = { lines: x.out, payment_method: 'Cash', ...(old.customer_id ? { customer_id: old.customer_id } : {}) };
    checkInput(input);
    const resolved = await stage.resolveLines(trx, input, now);
    const policy = policyFor(resolved.shop.store);
    await stage.checkRules(trx, resolved, policy);
    const priced = stage.priceLines(resolved);
    const amount = refund!.parts.reduce((s, p) => s + p.amount, 0);
    const { applied, out: given } = exchangeTender(refund!.parts, priced.total, x.give_back);
    const payments = mergeParts<SalePaymentInput>([
      ...applied.map((p) => ({ method: p.method, amount: fromCents(p.amount) })),
      ...difference(x, priced.total - amount),
    ]);
    const sale = { ...resolved, input: { ...input, payment_method: undefined, payments } };
    const tender = stage.settleTender(sale, priced);
    const taken = await stage.takeStock(trx, sale, priced, policy);
    const shiftId = stage.assignShift(sale);
    const number = stage.numberSale(resolved);
    const plan = { id: newId(), sale, priced, tender, taken, shiftId, number };
    const toTab = x.give_back === 'tab' ? await payTab(trx, old.customer_id, given, now) : undefined;
    const { receipt } = await stage.writeSale(trx, ctx, plan, async (payload, undo) => {
      const r = refund!.payload as { transaction_id: string; lines: RefundLineInput[]; shift_id?: string };
      const queued = {
        transaction_id: r.transaction_id,
        reason,
        back: r.lines,
        ...(r.shift_id ? { shift_id: r.shift_id } : {}),
        ...(toTab ? { give_back: 'tab' } : {}),
        sale: payload,
      };
      const both = together(refund!.undo, undo);
      await enqueue(trx, 'sale.exchange', queued, now, toTab ? together(both, toTab) : both, number.seq);
    });
    return { returned, sale: receipt, difference: fromCents(priced.total - amount) };
  });
  ctx.queued();
  return out;
}

/** The parts the customer pays of the difference (TZS): none when the items back cover the items out. */
function difference(x: ExchangeInput, owed: number): SalePaymentInput[] {
  if (owed <= 0) return [];
  if (x.payments) return x.payments;
  if (!x.payment_method)
    throw new TillError(
      'VALIDATION_ERROR',
      `payment_method the items out cost ${fromCents(owed)} TZS more: say how the difference is paid`,
      'payment_method',
    );
  const method: PaymentMethod = x.payment_method;
  return [
    {
      method,
      amount: fromCents(owed),
      ...(x.payment_reference ? { reference: x.payment_reference } : {}),
      ...(x.payment_phone ? { phone: x.payment_phone } : {}),
    },
  ];
}

/** The difference given back paid into the customer's tab, as the server does online (exchange.ts `payTab`). */
async function payTab(trx: LocalTrx, customerId: string | null | undefined, given: MoneyPart[], now: number): Promise<Undo> {
  if (!customerId)
    throw new TillError('VALIDATION_ERROR', 'give_back the sale has no customer, so there is no tab to pay off', 'give_back');
  let undo: Undo = {};
  for (const p of given) {
    if (p.method === 'Credit') continue;
    const paid = await payTabOnTill(trx, { customer_id: customerId, method: p.method, amount: p.amount }, now);
    undo = together(undo, paid.undo);
  }
  return undo;
}

/** Both undos as one: a refusal of the exchange takes the refund and the sale back. */
function together(a: Undo, b: Undo): Undo {
  const add = (x: Record<string, number> = {}, y: Record<string, number> = {}) => {
    const sum = { ...x };
    for (const [k, v] of Object.entries(y)) sum[k] = (sum[k] ?? 0) + v;
    return sum;
  };
  return {
    stock: add(a.stock, b.stock),
    batches: add(a.batches, b.batches),
    outstanding: add(a.outstanding, b.outstanding),
    restore: [...(a.restore ?? []), ...(b.restore ?? [])],
    movements: [...(a.movements ?? []), ...(b.movements ?? [])],
    ...((b.rejectSale ?? a.rejectSale) ? { rejectSale: b.rejectSale ?? a.rejectSale } : {}),
  };
}

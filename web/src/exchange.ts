/**
 * An exchange at the browser till (issue 52, docs/pos.md "Exchanges"), as plain data and pure
 * functions: the items back are a refund of part of the sale (refund-part.ts, the shared
 * `refundShare`), the items out a cart (cart.ts, the shared `priceSale`), and the difference paid
 * (one way, or split as split.ts judges it) or given back. The cashier sees the figures the till
 * books: the SDK's `till.exchange` prices both halves by the same rules.
 */
import type { Receipt, TillExchangeInput } from '@duka/client-sdk';
import type { SettlementMethod } from '@duka/shared';
import { type Cart, cartSaleLines, cartTotals } from './cart.js';
import { type RefundPlan, refundPlan } from './refund-part.js';
import { type SplitPart, splitState } from './split.js';

/** How the customer pays a difference: cash, M-Pesa by the SMS's reference, or several ways. */
export interface ExchangePay {
  method: 'Cash' | 'M-Pesa' | 'split';
  reference: string;
  parts: SplitPart[];
  /** When the items back are worth more: the method the difference goes out by, or the customer's tab. */
  giveBack: GiveBack;
}

export const startPay = (): ExchangePay => ({ method: 'Cash', reference: '', parts: [], giveBack: 'Cash' });

/** Why the exchange cannot be confirmed yet. */
export type ExchangeFault = 'back' | 'out' | 'reference' | 'split';

export interface ExchangeState {
  back: RefundPlan;
  /** The items out, cents. */
  outTotal: number;
  /** out − back, cents: above 0 the customer pays it, below 0 it is given back. */
  difference: number;
  fault: ExchangeFault | null;
  /** What `till.exchange` takes; null while `fault`. */
  input: TillExchangeInput | null;
}

export type GiveBack = SettlementMethod | 'tab';

/**
 * The ways a difference may go back: the methods the sale was paid by (cash always), and the
 * customer's tab when the sale has a customer (it pays off what they owe: `give_back: 'tab'`).
 */
export function giveBackChoices(sale: Receipt): GiveBack[] {
  const paid = sale.payments?.length ? sale.payments.map((p) => p.method) : [sale.payment_method];
  const methods = [...new Set(paid.filter((m): m is SettlementMethod => m !== 'Credit' && m !== 'Mixed'))];
  const ways: GiveBack[] = methods.includes('Cash') ? methods : ['Cash', ...methods];
  return sale.customer_id ? [...ways, 'tab'] : ways;
}

/** The lines typed back (by line index), the cart of items out and how the difference goes. */
export function exchangeState(sale: Receipt, typed: ReadonlyMap<number, string>, out: Cart, pay: ExchangePay): ExchangeState {
  const back = refundPlan(sale, typed);
  const outTotal = cartTotals({ ...out, discountPct: 0 }).total;
  const difference = outTotal - back.amount;
  const state = { back, outTotal, difference, input: null };
  if (back.lines.length === 0 || back.faults.size > 0) return { ...state, fault: 'back' };
  if (out.lines.length === 0) return { ...state, fault: 'out' };
  const base = { back: back.lines, out: cartSaleLines(out) };
  if (difference <= 0) return { ...state, fault: null, input: { ...base, give_back: pay.giveBack } };
  if (pay.method === 'split') {
    const payments = splitState(pay.parts, difference).payments;
    return payments ? { ...state, fault: null, input: { ...base, payments } } : { ...state, fault: 'split' };
  }
  if (pay.method === 'Cash') return { ...state, fault: null, input: { ...base, payment_method: 'Cash' } };
  const reference = pay.reference.trim();
  if (!reference) return { ...state, fault: 'reference' };
  return { ...state, fault: null, input: { ...base, payment_method: 'M-Pesa', payment_reference: reference } };
}

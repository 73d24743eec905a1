/**
 * A part of a sale refunded (issue 51: a weighed line partly refunded): which lines, how much money
 * comes back for them and which of the sale's tender parts gives it. One rule here for the server
 * and the till (docs/pos.md "Refunding part of a sale"); the input's shape is `RefundLines` in pos.schemas.ts.
 */
import type { PaymentMethod } from '../payment-methods.js';

/**
 * The cents given back for a line once `done` of its `qty` counts are refunded, in all: the line's
 * net (`line_total` − its discount share) × done / qty, rounded half up to the shilling, never more
 * than the net, and the whole net once everything is back. Cumulative, so a refund's money is the
 * difference of two of these: 0.25 kg then 1 kg of a 1.25 kg line of 4,063 give back 813 then
 * 3,250, exactly the line, however it is split.
 */
export function refundedShare(net: number, qty: number, done: number): number {
  if (done >= qty) return net;
  const den = BigInt(qty) * 100n;
  const rounded = Number((2n * BigInt(net) * BigInt(done) + den) / (2n * den)) * 100;
  return Math.min(rounded, net);
}

/** The VAT contained in what is given back, in all, by the same share, to the cent (the whole line's tax at the end). */
function refundedTax(tax: number, qty: number, done: number): number {
  if (done >= qty) return tax;
  const den = BigInt(qty);
  return Number((2n * BigInt(tax) * BigInt(done) + den) / (2n * den));
}

/** A sold line as stored (cents, counts) and what earlier refunds took of it. */
export interface RefundableLine {
  qty: number;
  line_total: number;
  discount: number;
  tax: number;
  /** Counts already refunded. */
  refunded: number;
}

/** The money (cents) and VAT share of refunding `part` more counts of a line. */
export function refundShare(line: RefundableLine, part: number): { amount: number; tax: number } {
  const net = line.line_total - line.discount;
  const after = line.refunded + part;
  return {
    amount: refundedShare(net, line.qty, after) - refundedShare(net, line.qty, line.refunded),
    tax: refundedTax(line.tax, line.qty, after) - refundedTax(line.tax, line.qty, line.refunded),
  };
}

/** A tender part of the sale, and what earlier refunds already gave back of it (cents). */
export interface RefundablePart {
  method: PaymentMethod;
  amount: number;
  back: number;
}

/**
 * Which parts give `amount` cents back (decision, docs/pos.md): first what the customer still owes
 * on the credit part (`creditUnpaid`, the tab's balance: the tab falls by it), then the cash part
 * (out of the drawer), then the other parts in the order paid, then what the tab had been paid
 * (under Credit, as a whole refund does). `tab` is how much of the tab's balance is written off.
 */
export function refundTender(
  amount: number,
  parts: RefundablePart[],
  creditUnpaid: number,
): { parts: Array<{ method: PaymentMethod; amount: number }>; tab: number } {
  const left = new Map(parts.map((p) => [p.method, Math.max(0, p.amount - p.back)]));
  const out = new Map<PaymentMethod, number>();
  let rest = amount;
  const take = (method: PaymentMethod, most = Infinity) => {
    const n = Math.min(rest, left.get(method) ?? 0, most);
    if (n <= 0) return 0;
    left.set(method, left.get(method)! - n);
    out.set(method, (out.get(method) ?? 0) + n);
    rest -= n;
    return n;
  };
  const tab = take('Credit', creditUnpaid);
  take('Cash');
  for (const p of parts) if (p.method !== 'Cash' && p.method !== 'Credit') take(p.method);
  take('Credit');
  return { parts: [...out].map(([method, n]) => ({ method, amount: n })), tab };
}

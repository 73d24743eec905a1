/**
 * How an exchange's money moves (issue 52, docs/pos.md "Exchanges"), one rule for the server and the
 * till: the items back are a refund whose parts (`refundTender`) are not paid out but pay the new
 * sale, so only the difference moves real money and every report, shift and refund figure stays a
 * plain refund plus a plain sale.
 */
import type { PaymentMethod } from '../payment-methods.js';

export interface MoneyPart {
  method: PaymentMethod;
  /** Cents. */
  amount: number;
}

/**
 * Splits the refund's parts into those that pay the new sale (`applied`, up to its total) and the
 * rest, which is given back (`out`). With `giveBack` a method, that method's part is used for the sale
 * last, so the difference goes out by it first as far as the sale was paid that way.
 */
export function exchangeTender(
  refundParts: MoneyPart[],
  saleTotal: number,
  giveBack?: PaymentMethod | 'tab',
): { applied: MoneyPart[]; out: MoneyPart[] } {
  const order = [...refundParts.filter((p) => p.method !== giveBack), ...refundParts.filter((p) => p.method === giveBack)];
  const applied: MoneyPart[] = [];
  const out: MoneyPart[] = [];
  let rest = saleTotal;
  for (const p of order) {
    const used = Math.min(rest, p.amount);
    rest -= used;
    if (used > 0) applied.push({ method: p.method, amount: used });
    if (p.amount > used) out.push({ method: p.method, amount: p.amount - used });
  }
  return { applied, out };
}

/** Parts of one method added together, in the order first seen (a sale takes each method once). */
export function mergeParts<P extends MoneyPart>(parts: P[]): P[] {
  const by = new Map<PaymentMethod, P>();
  for (const p of parts) {
    const had = by.get(p.method);
    by.set(p.method, had ? { ...had, amount: had.amount + p.amount } : { ...p });
  }
  return [...by.values()];
}

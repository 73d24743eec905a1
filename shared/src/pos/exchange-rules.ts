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

/**
 * Parts of one method added together, in the order first seen (a sale takes each method once). A
 * later part's reference and phone are kept: the mirrored part has none, the difference's are what
 * the customer's SMS says, which a provider's report is matched by.
 */
export function mergeParts<P extends MoneyPart>(parts: P[]): P[] {
  const by = new Map<PaymentMethod, P>();
  for (const p of parts) {
    const had = by.get(p.method);
    by.set(p.method, had ? { ...had, ...p, amount: had.amount + p.amount } : { ...p });
  }
  return [...by.values()];
}

/**
 * How much of each of the new sale's parts the refund's parts paid (cents, in the parts' order): a
 * part's method's refund money, up to the part. Not new money: a mobile-money part waits for a
 * provider's report of the rest only. Taken from the refund's parts themselves, so the server gets
 * the same answer for a pushed exchange, whose sale's parts the till settled (`exchangeTender`'s
 * `applied` is within the refund's parts by method, the difference on top).
 */
export function mirroredOf(saleParts: MoneyPart[], refundParts: MoneyPart[]): number[] {
  const left = new Map<PaymentMethod, number>();
  for (const p of refundParts) left.set(p.method, (left.get(p.method) ?? 0) + p.amount);
  return saleParts.map((p) => {
    const used = Math.min(p.amount, left.get(p.method) ?? 0);
    left.set(p.method, (left.get(p.method) ?? 0) - used);
    return used;
  });
}

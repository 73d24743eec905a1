/**
 * What a chaos till of the shop sells beyond whole pieces paid one way (issue 51), offline and
 * online through the SDK's `sell`: kilos of the measured products (up to 3 decimals), soda by the
 * carton of 24 or loose, sales paid cash + M-Pesa or part on a customer's credit and the rest in
 * cash. And, at an online moment, a refund of part of one of its own sales through REST (the SDK's
 * `refund` gives back the whole sale; docs/pos.md "Refunding part of a sale"), signed in as the
 * back office and retried under one Idempotency-Key, so a lost reply never refunds twice.
 */
import type { Product, SalePaymentInput, Unit } from '@duka/shared';
import { fromCount, isMeasured, lineAmount, refundShare, toCents, toCount } from '@duka/shared';
import type { SaleLine, Till } from '@duka/client-sdk';
import type { Owner } from './actors.js';
import type { WorkerSale } from './protocol.js';
import type { Rng } from './rng.js';
import { persist } from './till-common.js';

const KILOS = [0.25, 0.5, 0.75, 1, 1.5, 2.125, 0.333, 1.375];

/** One line of `product`: kilos of a measured one, a carton or two (or loose bottles) of one sold by the pack, else 1-3 pieces. */
export function shopLine(rng: Rng, product: Product | null, product_id: string): SaleLine {
  if (product && isMeasured(product.unit)) return { product_id, qty: rng.pick(KILOS) };
  const pack = product?.packs?.[0];
  if (pack && rng.chance(0.5)) return { product_id, pack_id: pack.id, qty: rng.int(1, 2) };
  return { product_id, qty: rng.int(1, 3) };
}

/** What the lines come to at the replica's prices, TZS (the shared per-line rounding; a pack at its price). */
function estimate(lines: SaleLine[], catalogue: Map<string, Product | null>): number {
  let cents = 0;
  for (const l of lines) {
    const p = catalogue.get(l.product_id);
    if (!p) continue;
    const pack = l.pack_id ? p.packs.find((k) => k.id === l.pack_id) : undefined;
    if (pack) cents += toCents(pack.selling_price ?? pack.units * p.selling_price) * l.qty;
    else cents += lineAmount(toCents(p.selling_price), toCount(l.qty, p.unit), p.unit);
  }
  return cents / 100;
}

/** How a split sale will be paid, drawn before its total is known: the share of M-Pesa or credit, the change asked for. */
export interface SplitPlan {
  share: number;
  change: number;
  customer?: string;
}

/** Cash + M-Pesa (sometimes with change), or, for `customer`, part on their credit and the rest in cash. */
export function planSplit(rng: Rng, customer?: string): SplitPlan {
  if (customer) return { share: rng.pick([0.4, 0.7]), change: 0, customer };
  return { share: rng.pick([0.3, 0.5, 0.8]), change: rng.pick([0, 0, 500]) };
}

/** The parts of `plan` for the lines at the replica's prices now (a price the owner changed reaches the replica on a pull). */
export async function splitTender(till: Till, plan: SplitPlan, lines: SaleLine[], n: number): Promise<SalePaymentInput[]> {
  const catalogue = new Map(await Promise.all(lines.map(async (l) => [l.product_id, await till.product(l.product_id)] as const)));
  const total = estimate(lines, catalogue);
  const other = Math.max(1, Math.floor(total * plan.share));
  if (plan.customer)
    return [
      { method: 'Cash', amount: total - other },
      { method: 'Credit', amount: other },
    ];
  return [
    { method: 'M-Pesa', amount: other, reference: `SPLIT${n}` },
    { method: 'Cash', amount: total - other + plan.change },
  ];
}

/** A line as the run records it: its counts (a pack line's qty is its pieces) and pack. */
export function recordLine(l: { product_id: string; qty: number; unit?: Unit; unit_price: number; pack?: { id: string } | null }) {
  return {
    product_id: l.product_id,
    qty: l.qty,
    counts: toCount(l.qty, l.unit ?? 'piece'),
    unit_price: l.unit_price,
    ...(l.pack ? { pack_id: l.pack.id } : {}),
  };
}

/**
 * Refund part of `target`, a sale of this till paid without credit that the server already has:
 * a fifth or a half of a weighed line, or some pieces of a line of several (bottles out of a
 * carton). The money expected is the shared rule's (`refundShare`) on the till's own receipt.
 * Answers false (and does nothing) while the sale is not synced yet.
 */
export async function refundPart(rng: Rng, till: Till, office: Owner, target: WorkerSale): Promise<boolean> {
  const lines = target.lines.filter((l) => (l.counts ?? l.qty) > 1);
  const line = rng.pick(lines);
  const counts = line.counts ?? line.qty;
  const measured = counts !== line.qty && !line.pack_id;
  const part = measured ? Math.max(1, Math.floor(counts * rng.pick([0.2, 0.5]))) : rng.int(1, counts - 1);
  const receipt = await till.transaction(target.id);
  if (receipt?.sync_state !== 'synced') return false;
  const sold = receipt.lines.find((l) => l.product_id === line.product_id && (l.pack?.id ?? undefined) === line.pack_id)!;
  const unit = sold.unit ?? 'piece';
  const money = refundShare(
    { qty: counts, line_total: toCents(sold.line_total), discount: toCents(sold.discount), tax: toCents(sold.tax), refunded: 0 },
    part,
  );
  const body = {
    reason: 'customer brought part back',
    lines: [{ product_id: line.product_id, ...(line.pack_id ? { pack_id: line.pack_id } : {}), qty: fromCount(part, unit) }],
  };
  await persist('refund of part of a sale', () =>
    office.call('POST', `/pos/transactions/${target.id}/refund`, body, { 'idempotency-key': `part-${target.id}` }),
  );
  target.refunds = [
    ...(target.refunds ?? []),
    {
      amount: money.amount / 100,
      lines: [{ product_id: line.product_id, ...(line.pack_id ? { pack_id: line.pack_id } : {}), counts: part }],
    },
  ];
  return true;
}

/** The sales of this till whose part the back office may refund: kept (never reversed by the till), paid without credit, a line of several. */
export const refundable = (sales: WorkerSale[]) =>
  sales.filter(
    (s) =>
      s.reversed === null &&
      !s.locked &&
      !s.refunds?.length &&
      s.payment_method !== 'Credit' &&
      !s.parts?.Credit &&
      s.lines.some((l) => (l.counts ?? l.qty) > 1),
  );

/**
 * Refunding part of a sale at the browser till (issue 51, docs/pos.md "Refunding part of a
 * sale"), as plain data and pure functions: per line what is left to give back and the quantity
 * typed, and the money it comes to by the shared `refundShare`, the rule the till and the server
 * refund by, so what the cashier confirms is what is booked.
 */
import type { Receipt } from '@duka/client-sdk';
import { isMeasured, quantityFault, type RefundLineInput, refundShare, toCents, toCount, type Unit } from '@duka/shared';

/** A line of the sale as the refund offers it. */
export interface RefundRow {
  index: number;
  name: string;
  unit: Unit;
  /** Typed with decimals (a measured product's line); a piece line's quantity is whole. */
  decimals: boolean;
  /** What is left to give back, in the line's unit. */
  left: number;
  /** Another line of the same product (and pack) came first: a refund names a line by its product, so this one is not offered. */
  repeat: boolean;
}

/** The counts and cents `refundShare` reads for line `i`. */
function counted(sale: Receipt, i: number) {
  const l = sale.lines[i]!;
  const unit: Unit = l.unit ?? 'piece';
  return {
    unit,
    qty: toCount(l.qty, unit),
    refunded: toCount(l.refunded_qty ?? 0, unit),
    line_total: toCents(l.line_total),
    discount: toCents(l.discount),
    tax: toCents(l.tax),
  };
}

const keyOf = (l: Receipt['lines'][number]) => `${l.product_id}/${l.pack?.id ?? ''}`;

export function refundRows(sale: Receipt): RefundRow[] {
  return sale.lines.map((l, index) => {
    const c = counted(sale, index);
    return {
      index,
      name: l.pack ? `${l.product_name} · ${l.pack.name}` : l.product_name,
      unit: c.unit,
      decimals: isMeasured(c.unit),
      left: Math.max(0, l.qty - (l.refunded_qty ?? 0)),
      repeat: sale.lines.findIndex((o) => keyOf(o) === keyOf(l)) !== index,
    };
  });
}

/** What is wrong with a typed quantity: not a quantity of the unit, or more than is left. */
export type RefundQtyFault = 'qty' | 'too_much';

/** A typed quantity (`0.25`, `0,25`), or null when none was typed. */
const typedNumber = (typed: string | undefined): number | null => {
  const text = (typed ?? '').trim().replace(',', '.');
  return text === '' ? null : Number(text);
};

export interface RefundPlan {
  /** What `till.refund` takes; empty while nothing valid is typed. */
  lines: RefundLineInput[];
  /** The money that comes back, cents. */
  amount: number;
  /** Per line index, what is wrong with what was typed. */
  faults: Map<number, RefundQtyFault>;
}

/** The lines typed (by line index) and the money they give back. */
export function refundPlan(sale: Receipt, typed: ReadonlyMap<number, string>): RefundPlan {
  const plan: RefundPlan = { lines: [], amount: 0, faults: new Map() };
  for (const row of refundRows(sale)) {
    const qty = typedNumber(typed.get(row.index));
    if (qty === null || row.repeat || qty === 0) continue;
    const c = counted(sale, row.index);
    if (!Number.isFinite(qty) || quantityFault(qty, row.unit) !== null) plan.faults.set(row.index, 'qty');
    else if (toCount(qty, row.unit) > c.qty - c.refunded) plan.faults.set(row.index, 'too_much');
    else {
      const l = sale.lines[row.index]!;
      plan.lines.push({ product_id: l.product_id, ...(l.pack ? { pack_id: l.pack.id } : {}), qty });
      plan.amount += refundShare(c, toCount(qty, row.unit)).amount;
    }
  }
  return plan;
}

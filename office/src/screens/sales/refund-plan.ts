/**
 * A refund of part of a sale, as plain data (docs/pos.md "Refunding part of a sale"): per line
 * what is left to give back, and what the quantities typed come to, judged by the shared rules the
 * server refunds by (`refundLinesWanted` for which line and how much, `refundShare` for the
 * money), so the amount the owner confirms is the amount booked.
 */
import {
  fromCount,
  isMeasured,
  type RefundLineInput,
  refundLinesWanted,
  refundShare,
  type Transaction,
  toCents,
  toCount,
  type Unit,
} from '@duka/shared';

type Line = Transaction['lines'][number];

/** A line of the sale as the refund form offers it. */
export interface RefundRow {
  index: number;
  name: string;
  unit: Unit;
  /** A measured line takes decimals (0.25 kg); a piece line whole numbers. */
  decimals: boolean;
  /** Sold and still to give back, in the line's unit. */
  sold: number;
  left: number;
  /** Another line of the same product (and pack) came first: the API names a line by its product, so this one is refunded only with the rest. */
  repeat: boolean;
}

const unitOf = (l: Line): Unit => l.unit ?? 'piece';
const keyOf = (l: Line) => `${l.product_id}/${l.pack?.id ?? ''}`;

/** The counts and cents the shared rules read for a line. */
function counted(l: Line) {
  const unit = unitOf(l);
  return {
    qty: toCount(l.qty, unit),
    refunded: toCount(l.refunded_qty ?? 0, unit),
    line_total: toCents(l.line_total),
    discount: toCents(l.discount),
    tax: toCents(l.tax),
  };
}

export function refundRows(sale: Transaction): RefundRow[] {
  return sale.lines.map((l, index) => {
    const unit = unitOf(l);
    const c = counted(l);
    return {
      index,
      name: l.pack ? `${l.product_name} · ${l.pack.name}` : l.product_name,
      unit,
      decimals: isMeasured(unit),
      sold: l.qty,
      left: fromCount(Math.max(0, c.qty - c.refunded), unit),
      repeat: sale.lines.findIndex((o) => keyOf(o) === keyOf(l)) !== index,
    };
  });
}

/** What is wrong with a line's typed quantity before the server is asked: not a quantity of its unit, or more than is left. */
export type RefundFault = { index: number; kind: 'qty' | 'too_much' };

export interface RefundPlan {
  /** The body's `lines`; absent when nothing is typed: the API then refunds everything left. */
  lines?: RefundLineInput[];
  /** Per entry of `lines`, the sale line's index: the server names a line `lines.N.qty` by its place in the body. */
  sent: number[];
  /** The money that comes back (cents); null while the input is refused. */
  amount: number | null;
  fault: RefundFault | null;
}

/** A typed quantity (`0.25`, `0,25`); null when nothing was typed. */
function typedNumber(text: string | undefined): number | null {
  const t = (text ?? '').trim().replace(',', '.');
  return t === '' ? null : Number(t);
}

/** The refund the typed quantities (by sale line index) make, and the money it gives back. */
export function refundPlan(sale: Transaction, typed: ReadonlyMap<number, string>): RefundPlan {
  const rows = refundRows(sale).filter((r) => r.left > 0 && !r.repeat);
  const asked = rows.flatMap((r) => {
    const qty = typedNumber(typed.get(r.index));
    return qty === null || qty === 0 ? [] : [{ row: r, qty }];
  });
  const typedAny = rows.some((r) => typedNumber(typed.get(r.index)) !== null);
  if (!typedAny) {
    const amount = sale.lines.reduce((sum, l) => {
      const c = counted(l);
      return sum + refundShare(c, Math.max(0, c.qty - c.refunded)).amount;
    }, 0);
    return { sent: [], amount, fault: null };
  }
  const sent = asked.map((a) => a.row.index);
  const lines: RefundLineInput[] = asked.map(({ row, qty }) => {
    const l = sale.lines[row.index]!;
    return { product_id: l.product_id, ...(l.pack ? { pack_id: l.pack.id } : {}), qty };
  });
  const bad = asked.find((a) => !Number.isFinite(a.qty) || a.qty < 0);
  if (bad) return { lines, sent, amount: null, fault: { index: bad.row.index, kind: 'qty' } };
  const sold = sale.lines.map((l, index) => ({
    index,
    product_id: l.product_id,
    pack_id: l.pack?.id ?? null,
    unit: unitOf(l),
    name: l.product_name,
    qty: counted(l).qty,
  }));
  const judged = refundLinesWanted(sold, (s) => s.qty - counted(sale.lines[s.index]!).refunded, lines);
  if ('fault' in judged) {
    const at = Number(judged.fault.field.split('.')[1]);
    const kind = judged.fault.code === 'INVALID_STATE' ? 'too_much' : 'qty';
    return { lines, sent, amount: null, fault: { index: sent[at] ?? -1, kind } };
  }
  const amount = judged.wanted.reduce((sum, w) => sum + refundShare(counted(sale.lines[w.line.index]!), w.count).amount, 0);
  return { lines, sent, amount, fault: null };
}

/**
 * Issue 52: the reorder rule, in counts (integers), in one place. docs/inventory.md "Reorder
 * suggestions" says it in words with a worked example; keep the two the same.
 *
 * needed    = ⌈sold over the last 28 days × (lead time + days of cover) ÷ 28⌉   (counts)
 * suggested = max(needed, reorder point) − stock − on order (drafts included), rounded up to a whole piece or
 *             unit (1,000 counts of a kg product), or to whole packs of the largest pack.
 * A product is suggested when it is at or under its reorder point, or its stock lasts fewer days
 * than the lead time (stock × 28 < sold × lead time), and the suggestion is more than nothing.
 */
import { type Unit, unitScale } from '@duka/shared';

/** Days of sales averaged. Four whole weeks: every weekday counted as often as the others. */
export const WINDOW_DAYS = 28;
/** Days of cover when none is asked (the suggestions' `cover_days` default; a low-stock notification's). */
export const DEFAULT_COVER_DAYS = 14;
/** A supplier's lead time when it has none (or the product's supplier is unknown). */
export const DEFAULT_LEAD_TIME_DAYS = 7;

export type ReorderReason = 'at_reorder_point' | 'runs_out_within_lead_time';

export interface ReorderFigures {
  /** Net sold over the window, in counts. */
  sold: number;
  leadDays: number;
  coverDays: number;
  stock: number;
  /** Owed on sent orders plus held by drafts. */
  onOrder: number;
  reorderPoint: number;
  unit: Unit;
  /** Counts in the product's largest pack; null: it has none. */
  packUnits: number | null;
}

export interface ReorderOutcome {
  reasons: ReorderReason[];
  needed: number;
  suggested: number;
  packs: number | null;
}

const ceilDiv = (a: number, b: number) => Math.floor((a + b - 1) / b);

/** The suggestion for one product, in counts; null when it is not to be ordered. */
export function reorderRule(f: ReorderFigures): ReorderOutcome | null {
  const sold = Math.max(0, f.sold);
  const needed = ceilDiv(sold * (f.leadDays + f.coverDays), WINDOW_DAYS);
  const reasons: ReorderReason[] = [];
  if (f.stock <= f.reorderPoint) reasons.push('at_reorder_point');
  if (f.stock * WINDOW_DAYS < sold * f.leadDays) reasons.push('runs_out_within_lead_time');
  const short = Math.max(needed, f.reorderPoint) - f.stock - f.onOrder;
  if (reasons.length === 0 || short <= 0) return null;
  const step = f.packUnits ?? unitScale(f.unit);
  const suggested = ceilDiv(short, step) * step;
  return { reasons, needed, suggested, packs: f.packUnits ? suggested / f.packUnits : null };
}

/** sold ÷ window in the product's unit, to 3 decimals: shown, never summed. */
export const averageDaily = (sold: number, unit: Unit): number =>
  Math.round((Math.max(0, sold) * 1000) / (WINDOW_DAYS * unitScale(unit))) / 1000;

/** How many days the stock lasts at that average, to 1 decimal; null with no sales. */
export const daysLeft = (stock: number, sold: number): number | null =>
  sold > 0 ? Math.round((Math.max(0, stock) * WINDOW_DAYS * 10) / sold) / 10 : null;

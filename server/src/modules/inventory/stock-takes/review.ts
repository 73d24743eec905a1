/**
 * A stock-take as the review shows it: per product expected, counted and the variance in units and
 * at cost, and the totals. The one place the variance is worked out (the answer, the list and the CSV).
 */
import { fromCents, fromCount, lineAmount, type StockTake, type StockTakeLine, type StockTakeSummary } from '@duka/shared';
import type { StockTakeRow } from '../../../db/tables/stock-takes.table.js';
import { iso } from '../../../lib/clock.js';
import type { LineWithProduct } from './stock-takes.queries.js';

/** Cents of `variance` counts at `cost` cents a unit: half up on the amount (to the shilling for a measured line), once per line. */
export const varianceCents = (cost: number, variance: number, unit: LineWithProduct['unit']): number =>
  variance < 0 ? -lineAmount(cost, -variance, unit) : lineAmount(cost, variance, unit);

/** A line in counts: null counted for a product nobody counted (and apply did not zero). */
export function lineFigures(l: LineWithProduct) {
  const counted = l.first_counted_at !== null ? l.counted : l.change !== null ? 0 : null;
  const expected = l.expected ?? l.stock;
  const variance = counted === null ? null : counted - expected;
  const cost = l.cost_price ?? l.product_cost;
  return { counted, expected, variance, cost, value: variance === null ? null : varianceCents(cost, variance, l.unit) };
}

export function toLine(l: LineWithProduct): StockTakeLine {
  const f = lineFigures(l);
  const units = (n: number | null) => (n === null ? null : fromCount(n, l.unit));
  return {
    product_id: l.product_id,
    name: l.name,
    unit: l.unit,
    expected: fromCount(f.expected, l.unit),
    counted: units(f.counted),
    variance: units(f.variance),
    cost_price: fromCents(f.cost),
    variance_value: f.value === null ? null : fromCents(f.value),
    first_counted_at: l.first_counted_at === null ? null : iso(l.first_counted_at),
    change: units(l.change),
  };
}

export function toSummary(take: StockTakeRow, lines: LineWithProduct[]): StockTakeSummary {
  const figures = lines.map(lineFigures);
  const counted = figures.filter((f) => f.counted !== null);
  return {
    id: take.id,
    store_id: take.store_id,
    scope: take.scope,
    category_id: take.category_id,
    status: take.status,
    uncounted: take.uncounted,
    note: take.note,
    opened_by: take.opened_by,
    opened_at: iso(take.opened_at),
    closed_by: take.closed_by,
    closed_at: take.closed_at === null ? null : iso(take.closed_at),
    totals: {
      products: lines.length,
      counted: counted.length,
      over: counted.filter((f) => f.variance! > 0).length,
      short: counted.filter((f) => f.variance! < 0).length,
      variance_value: fromCents(counted.reduce((sum, f) => sum + f.value!, 0)),
    },
  };
}

export const toStockTake = (take: StockTakeRow, lines: LineWithProduct[]): StockTake => ({
  ...toSummary(take, lines),
  lines: lines.map(toLine),
});

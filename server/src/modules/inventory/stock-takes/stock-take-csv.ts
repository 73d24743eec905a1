/** A stock-take's review as CSV: one row per product, the review's figures (review.ts), names defused. */
import type { StockTake } from '@duka/shared';
import { stringify } from 'csv-stringify/sync';
import { defuseFormula } from '../../../lib/csv.js';

const COLUMNS = ['product_id', 'name', 'unit', 'expected', 'counted', 'variance', 'cost_price', 'variance_value', 'change'] as const;

export function stockTakeCsv(take: StockTake): string {
  const cell = (v: string | number | null) => (v === null ? '' : String(v));
  const rows = take.lines.map((l) => [
    l.product_id,
    defuseFormula(l.name),
    l.unit,
    cell(l.expected),
    cell(l.counted),
    cell(l.variance),
    cell(l.cost_price),
    cell(l.variance_value),
    cell(l.change),
  ]);
  return stringify(rows, { header: true, columns: [...COLUMNS], record_delimiter: 'windows' });
}

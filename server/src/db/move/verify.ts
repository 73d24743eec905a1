/**
 * What the move checks before it commits: for every table, the rows on both sides, and the sum of
 * every money column (integer cents in `bigint`, migrations/_helpers.ts), both summed by the
 * databases themselves, exactly (SQLite's integer sum, PostgreSQL's numeric one), and compared as
 * decimal text.
 */
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { ident, type TargetTable } from './target.js';

/**
 * Money columns by name: cents are always `bigint`, and named for what they count (`amount`,
 * `subtotal`, `cost_price`, `refund_total`, `price_monthly`, `cost_cents`…). Rates (basis points),
 * percentages, counts and times are not money even when their names share a word.
 */
const MONEY = /(^|_)(amount|price|cost|(sub)?total|discount|tax|revenue|vat|net|value|spend|limit|cents)(_|$)/;
const NOT_MONEY = /(_rate|_pct|_count|_at|_qty)$/;

export const isMoneyColumn = (name: string, type: string) => type === 'bigint' && MONEY.test(name) && !NOT_MONEY.test(name);

export interface TableCheck {
  table: string;
  source: string;
  target: string;
  money: Array<{ column: string; source: string; target: string }>;
}

export const tableMatches = (c: TableCheck) => c.source === c.target && c.money.every((m) => m.source === m.target);

export async function checkTable(sqlite: SQLite.Database, client: pg.ClientBase, table: TargetTable): Promise<TableCheck> {
  const money = table.columns.filter((c) => isMoneyColumn(c.name, c.type)).map((c) => c.name);
  const t = ident(table.name);
  const sums = money.map((c) => `coalesce(sum(${ident(c)}), 0)`);
  const src = sqlite
    .prepare(`select ${['count(*)', ...sums].join(', ')} from ${t}`)
    .raw(true)
    .safeIntegers(true)
    .get() as bigint[];
  const { rows } = await client.query<string[]>({
    text: `select ${['count(*)', ...sums].map((s) => `${s}::text`).join(', ')} from ${t}`,
    rowMode: 'array',
  });
  const dst = rows[0]!;
  return {
    table: table.name,
    source: String(src[0]),
    target: dst[0]!,
    money: money.map((column, i) => ({ column, source: String(src[i + 1]), target: dst[i + 1]! })),
  };
}

/** The checks as a table for the operator: one line per table, its money sums after it. */
export function formatChecks(checks: TableCheck[]): string {
  const width = Math.max(5, ...checks.map((c) => c.table.length));
  const lines = [`${'table'.padEnd(width)}  ${'sqlite'.padStart(9)}  ${'postgres'.padStart(9)}  money (sum of cents, sqlite = postgres)`];
  for (const c of checks) {
    const money = c.money
      .map((m) => (m.source === m.target ? `${m.column} ${m.source}` : `${m.column} ${m.source} ≠ ${m.target}`))
      .join(', ');
    const mark = tableMatches(c) ? ' ' : '✗';
    lines.push(`${c.table.padEnd(width)}  ${c.source.padStart(9)}  ${c.target.padStart(9)} ${mark}${money ? ` ${money}` : ''}`.trimEnd());
  }
  return lines.join('\n');
}

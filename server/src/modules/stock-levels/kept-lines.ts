/**
 * What a sold line still is once refunds of part of its sale took some of it back (issue 51,
 * docs/reports-and-analytics.md "Refunds of part of a sale in every report"): the counts, cents and
 * VAT its `refund_lines` gave back, in SQL over a line `l` of a sale `t`. A sale never refunded in
 * part (`t.part_refunds` 0, nearly every sale) reads no refund row: the guard is on the sale's own
 * column.
 */
import { type RawBuilder, sql } from 'kysely';

/** Σ `refund_lines.<figure>` of line `line` of sale `sale` (0 for a sale never refunded in part). */
export const refundedOfLine = (figure: 'qty' | 'amount' | 'tax', line = 'l', sale = 't'): RawBuilder<number> =>
  sql<number>`case when ${sql.ref(`${sale}.part_refunds`)} = 0 then 0 else coalesce((select sum(${sql.ref(`kept_rl.${figure}`)}) from ${sql.table('refund_lines')} as ${sql.raw('kept_rl')} where ${sql.ref('kept_rl.org_id')} = ${sql.ref(`${line}.org_id`)} and ${sql.ref('kept_rl.line_id')} = ${sql.ref(`${line}.id`)}), 0) end`;

/** The counts of line `line` still sold: its `qty` less what refunds of part took back. */
export const keptCounts = (line = 'l', sale = 't'): RawBuilder<number> =>
  sql<number>`(${sql.ref(`${line}.qty`)} - ${refundedOfLine('qty', line, sale)})`;

/**
 * Issue 51, every report follows a partial refund (docs/pos.md "Refunding part of a sale",
 * docs/reports-and-analytics.md "Refunds of part of a sale in every report"). A sale keeps what its
 * refunds of part gave back: `part_refunds` (how many), `refunded_total` (cents, Σ
 * `refunds.amount`) and `refunded_tax` (the VAT in it, Σ `refund_lines.tax`), so reports net them
 * with no join, and a sale never refunded in part (`part_refunds` 0) costs nothing more to read.
 * `refund_lines` gets an index by sold line: the line reports (VAT by rate, rollups by product)
 * read what came back of each line.
 *
 * Every existing row stays exact: the three columns are 0 on every sale but those with `refunds`
 * rows, whose figures are summed from them here. Organisations with such sales get their rollups
 * rebuilt from the ledger at the next read, as 0043 does (their state forgets its time zone).
 * `down` drops the index and the columns (the refunds tables keep the figures). Frozen.
 */
import { type Kysely, sql } from 'kysely';
import { index, t } from './_helpers.js';

const COLUMNS = ['part_refunds', 'refunded_total', 'refunded_tax'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('transactions')
    .addColumn('part_refunds', t.int, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('transactions')
    .addColumn('refunded_total', t.big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('transactions')
    .addColumn('refunded_tax', t.big, (c) => c.notNull().defaultTo(0))
    .execute();
  await index(db, 'refund_lines', ['org_id', 'line_id']);
  const ofSale = (eb: any) =>
    eb.and([eb('r.org_id', '=', eb.ref('transactions.org_id')), eb('r.transaction_id', '=', eb.ref('transactions.id'))]);
  await db
    .updateTable('transactions')
    .set((eb: any) => ({
      part_refunds: eb.selectFrom('refunds as r').select(eb.fn.countAll().as('n')).where(ofSale),
      refunded_total: eb.selectFrom('refunds as r').select(sql`coalesce(sum(r.amount), 0)`.as('a')).where(ofSale),
      refunded_tax: eb
        .selectFrom('refund_lines as rl')
        .innerJoin('refunds as r', (j: any) => j.onRef('r.org_id', '=', 'rl.org_id').onRef('r.id', '=', 'rl.refund_id'))
        .select(sql`coalesce(sum(rl.tax), 0)`.as('x'))
        .where(ofSale),
    }))
    .where((eb: any) => eb.exists(eb.selectFrom('refunds as r').select('r.id').where(ofSale)))
    .execute();
  await db
    .updateTable('analytics_rollup_state')
    .set({ time_zone: null })
    .where('org_id', 'in', (eb: any) => eb.selectFrom('refunds').select('org_id'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ix__refund_lines__org_id_line_id').execute();
  for (const column of COLUMNS) await db.schema.alterTable('transactions').dropColumn(column).execute();
}

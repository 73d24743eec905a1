/**
 * Issue 51, split tender: how a sale was paid, one row per part (`seq` 1…4) of
 * `transaction_payments`. `amount` is the cents the part pays towards the sale's total (a cash
 * part net of its change, which the sale keeps in `change_given`), so a sale's parts always add up
 * to its `total`. `reference`, `phone` and `verification` are the mobile-money part's, as
 * `transactions.payment_reference`, `payment_phone` and `payment_verification` kept them for the
 * whole sale (migration 0035). Tenant layout (issue 36): `org_id` leads the key, the foreign key
 * names the parent by `(org_id, id)`.
 *
 * Backfill: every existing sale paid one way, so each gets one part, its method and its total
 * (credit sales too: their part is the tab), in cents as they are: every sale keeps its money
 * exact. `down` drops the table; the sales' own columns were never changed. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, sql, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transaction_payments')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('transaction_id', t.id, (c) => c.notNull())
    .addColumn('seq', t.int, (c) => c.notNull())
    .addColumn('method', t.text, (c) => c.notNull())
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('reference', t.text)
    .addColumn('phone', t.text)
    .addColumn('verification', t.text)
    .addPrimaryKeyConstraint('pk__transaction_payments', ['org_id', 'transaction_id', 'seq'])
    .execute();
  await sql`
    insert into transaction_payments (org_id, transaction_id, seq, method, amount, reference, phone, verification)
    select org_id, id, 1, payment_method, total, payment_reference, payment_phone, payment_verification from transactions
  `.execute(db);
  await addForeignKey(
    db,
    'transaction_payments',
    'fk__transaction_payments__transaction_id',
    ['org_id', 'transaction_id'],
    'transactions',
    ['org_id', 'id'],
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transaction_payments').ifExists().execute();
}

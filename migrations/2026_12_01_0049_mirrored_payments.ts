/**
 * Issue 52, an exchange's mobile money: `transaction_payments.mirrored`, the cents of a part that
 * the refund of the sale it replaces paid (an exchange's "mirrored" part: the same method and amount
 * as that refund's part, never new money). A store's reconciliation and the matching of a provider's
 * payment read a mobile-money part's new money, `amount - mirrored`, so a sale exchanged for dearer
 * items waits only for the difference its customer paid. Default 0 for every existing part (none was
 * mirrored), so every sale and its figures stay exact; a column, no key, so the partitioned-by-org
 * layout is untouched. `down` drops it. docs/payments.md "Exchanges". Frozen.
 */
import type { Kysely } from 'kysely';
import { t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('transaction_payments')
    .addColumn('mirrored', t.big, (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transaction_payments').dropColumn('mirrored').execute();
}

/**
 * Mobile money at the till (issue 38, second part).
 *
 * `payment_requests`: a sale held while the customer's phone is asked for the money (a push). Its
 * id is the till's client id for the sale, which becomes the sale's id when paid; `sale_input` is
 * the sale as the till sent it (JSON), booked only when the payment is confirmed, so the receipt
 * number is taken then. While `awaiting_payment` the sale's stock is held (taken from
 * `product_stock`); a failure, a cancel or the end of the wait gives it back. `reference` is what
 * the provider was given for the current attempt (`<id>` for the first, `<id>.<n>` for a retry), so
 * a callback names the request it pays; `next_check_at` and `checks` drive the status query of a
 * push whose callback is late (amounts in cents, times epoch ms).
 *
 * `transactions.payment_phone` is the wallet the customer paid from; `payment_verification` is null
 * for a sale nobody needs to check (cash, bank, credit, or a store without a collection account),
 * `verified` once a payment the provider reported is matched to it, `unverified` until then, and
 * `unmatched` when the owner's window (`organisations.payment_match_window_min`) passed without
 * one. `received_payments.matched_at` is when a payment was matched, and `wallet_ref` the mobile
 * network's own transaction id where the provider passes it on (AzamPay's `fspReferenceId`): the
 * reference in the customer's SMS, which a cashier types for a sale rung up without a push. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, index, sql, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_requests')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id, (c) => c.notNull())
    .addColumn('account_id', t.id, (c) => c.notNull())
    .addColumn('device_id', t.id)
    .addColumn('cashier_id', t.id)
    .addColumn('sale_input', t.text, (c) => c.notNull())
    .addColumn('method', t.text, (c) => c.notNull())
    .addColumn('phone', t.text, (c) => c.notNull())
    .addColumn('network', t.text, (c) => c.notNull())
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('detail', t.text)
    .addColumn('attempt', t.int, (c) => c.notNull().defaultTo(1))
    .addColumn('reference', t.text, (c) => c.notNull())
    .addColumn('provider_ref', t.text)
    .addColumn('received_payment_id', t.id)
    .addColumn('sale_id', t.id)
    .addColumn('next_check_at', t.big)
    .addColumn('checks', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', t.big, (c) => c.notNull())
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__payment_requests', ['org_id', 'id'])
    .execute();
  await index(db, 'payment_requests', ['org_id', 'store_id', 'status']);
  // The status-query job looks across organisations for the pushes due a check.
  await db.schema.createIndex('ix__payment_requests__due').on('payment_requests').columns(['status', 'next_check_at']).execute();

  await db.schema.alterTable('transactions').addColumn('payment_phone', t.text).execute();
  await db.schema.alterTable('transactions').addColumn('payment_verification', t.text).execute();
  // Only the sales still waiting for their payment: few, and what the matching job reads.
  await sql
    .raw(
      `create index if not exists "ix__transactions__unverified" on "transactions" ("org_id", "received_at") where payment_verification = 'unverified'`,
    )
    .execute(db);
  await db.schema.alterTable('received_payments').addColumn('matched_at', t.big).execute();
  await db.schema.alterTable('received_payments').addColumn('wallet_ref', t.text).execute();
  await db.schema
    .alterTable('organisations')
    .addColumn('payment_match_window_min', t.int, (c) => c.notNull().defaultTo(60))
    .execute();

  await addForeignKey(db, 'payment_requests', 'fk__payment_requests__store_id', ['org_id', 'store_id'], 'stores', ['org_id', 'id']);
  await addForeignKey(db, 'payment_requests', 'fk__payment_requests__account_id', ['org_id', 'account_id'], 'collection_accounts', [
    'org_id',
    'id',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_requests').ifExists().execute();
  await db.schema.dropIndex('ix__transactions__unverified').ifExists().execute();
  for (const column of ['payment_phone', 'payment_verification']) await db.schema.alterTable('transactions').dropColumn(column).execute();
  for (const column of ['matched_at', 'wallet_ref']) await db.schema.alterTable('received_payments').dropColumn(column).execute();
  await db.schema.alterTable('organisations').dropColumn('payment_match_window_min').execute();
}

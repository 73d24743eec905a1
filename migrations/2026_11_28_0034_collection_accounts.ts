/**
 * A shop's own mobile-money collection accounts and the payments their providers report (issue 38).
 * `collection_accounts.credentials_enc` is the provider's credential object as sealed JSON and
 * `callback_token_enc` the sealed secret of the account's callback URL; `credentials_hint` is the
 * only part of them ever shown. At most one active account per organisation and store (store_id
 * null = every store): a partial unique index over `coalesce(store_id, '')`, so the organisation-
 * wide account counts as one "store".
 *
 * `received_payments` keeps what a provider said was paid into an account, once per provider
 * reference (a repeated callback is stored once: the unique index is the guarantee). Keys lead
 * with `org_id` like every tenant table since 0031. Frozen.
 */
import type { Kysely } from 'kysely';
import { addForeignKey, flag, index, sql, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('collection_accounts')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id)
    .addColumn('provider', t.text, (c) => c.notNull())
    .addColumn('label', t.text, (c) => c.notNull())
    .addColumn('credentials_enc', t.text, (c) => c.notNull())
    .addColumn('credentials_hint', t.text, (c) => c.notNull())
    .addColumn('callback_token_enc', t.text, (c) => c.notNull())
    .addColumn('test_mode', t.flag, flag(0))
    .addColumn('active', t.flag, flag(1))
    .addColumn('created_by', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__collection_accounts', ['org_id', 'id'])
    .execute();
  await sql
    .raw(
      `create unique index if not exists "uq__collection_accounts__active" on "collection_accounts" ("org_id", (coalesce("store_id", ''))) where active = 1`,
    )
    .execute(db);

  await db.schema
    .createTable('received_payments')
    .ifNotExists()
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('id', t.id, (c) => c.notNull())
    .addColumn('account_id', t.id, (c) => c.notNull())
    .addColumn('store_id', t.id)
    .addColumn('provider', t.text, (c) => c.notNull())
    .addColumn('provider_ref', t.text, (c) => c.notNull())
    .addColumn('reference', t.text)
    .addColumn('amount', t.big, (c) => c.notNull())
    .addColumn('payer_phone', t.text)
    .addColumn('network', t.text)
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('received_at', t.big, (c) => c.notNull())
    .addColumn('raw', t.text, (c) => c.notNull())
    .addColumn('matched_sale_id', t.id)
    .addPrimaryKeyConstraint('pk__received_payments', ['org_id', 'id'])
    .execute();
  await db.schema
    .createIndex('uq__received_payments__provider_ref')
    .on('received_payments')
    .columns(['org_id', 'account_id', 'provider_ref'])
    .unique()
    .execute();
  await index(db, 'received_payments', ['org_id', 'store_id', 'received_at']);

  await addForeignKey(db, 'collection_accounts', 'fk__collection_accounts__store_id', ['org_id', 'store_id'], 'stores', ['org_id', 'id']);
  await addForeignKey(db, 'received_payments', 'fk__received_payments__account_id', ['org_id', 'account_id'], 'collection_accounts', [
    'org_id',
    'id',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('received_payments').ifExists().execute();
  await db.schema.dropTable('collection_accounts').ifExists().execute();
}

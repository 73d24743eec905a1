/** Organisations, stores, users, auth secrets, outbox, change log, audit. Frozen: never import app code. */
import type { Kysely } from 'kysely';
import { flag, index, t, uniqueIndex } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('legal_name', t.text)
    .addColumn('tin', t.text)
    .addColumn('business_type', t.text, (c) => c.notNull().defaultTo('retail'))
    .addColumn('region', t.text)
    .addColumn('district', t.text)
    .addColumn('ward', t.text)
    .addColumn('street', t.text)
    .addColumn('address', t.text)
    .addColumn('latitude', t.real)
    .addColumn('longitude', t.real)
    .addColumn('phone', t.text)
    .addColumn('email', t.text)
    .addColumn('logo', t.text)
    .addColumn('sms_api_key_enc', t.text)
    .addColumn('sms_sender_id', t.text)
    .addColumn('aigateway_api_key_enc', t.text)
    .addColumn('timezone', t.text, (c) => c.notNull().defaultTo('Africa/Dar_es_Salaam'))
    .addColumn('currency', t.text, (c) => c.notNull().defaultTo('TZS'))
    .addColumn('credit_terms_days', t.int, (c) => c.notNull().defaultTo(30))
    .addColumn('ai_credits_monthly', t.int)
    .addColumn('is_active', t.flag, flag(1))
    .addColumn('version', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stores')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('code', t.text, (c) => c.notNull())
    .addColumn('phone', t.text)
    .addColumn('email', t.text)
    .addColumn('area', t.text)
    .addColumn('address', t.text)
    .addColumn('latitude', t.real)
    .addColumn('longitude', t.real)
    .addColumn('open_hours', t.text)
    .addColumn('color', t.text)
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('open'))
    .addColumn('vat_enabled', t.flag, flag(0))
    .addColumn('is_active', t.flag, flag(1))
    .addColumn('last_number', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'stores', ['org_id', 'code']);

  await db.schema
    .createTable('users')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.references('organisations.id'))
    .addColumn('store_id', t.id, (c) => c.references('stores.id'))
    .addColumn('first_name', t.text, (c) => c.notNull())
    .addColumn('last_name', t.text, (c) => c.notNull().defaultTo(''))
    .addColumn('phone', t.text)
    .addColumn('email', t.text)
    .addColumn('password_hash', t.text, (c) => c.notNull())
    .addColumn('pin_hash', t.text)
    .addColumn('role', t.text, (c) => c.notNull())
    .addColumn('shift', t.text)
    .addColumn('employment_status', t.text, (c) => c.notNull().defaultTo('active'))
    .addColumn('avatar_hue', t.int)
    .addColumn('occupation', t.text)
    .addColumn('can_refund', t.flag, flag(0))
    .addColumn('can_discount', t.flag, flag(0))
    .addColumn('can_view_reports', t.flag, flag(0))
    .addColumn('is_active', t.flag, flag(1))
    .addColumn('must_change_password', t.flag, flag(0))
    .addColumn('email_verified_at', t.big)
    .addColumn('failed_logins', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', t.big)
    .addColumn('totp_secret_enc', t.text)
    .addColumn('totp_pending_enc', t.text)
    .addColumn('totp_enabled', t.flag, flag(0))
    .addColumn('totp_last_step', t.big)
    .addColumn('last_login_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'users', ['phone']);
  await uniqueIndex(db, 'users', ['email']);
  await index(db, 'users', ['org_id']);

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('family_id', t.id, (c) => c.notNull())
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id'))
    .addColumn('store_id', t.id)
    .addColumn('amr', t.text, (c) => c.notNull())
    .addColumn('token_hash', t.text, (c) => c.notNull())
    .addColumn('expires_at', t.big, (c) => c.notNull())
    .addColumn('used_at', t.big)
    .addColumn('revoked_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await uniqueIndex(db, 'refresh_tokens', ['token_hash']);
  await index(db, 'refresh_tokens', ['family_id']);
  await index(db, 'refresh_tokens', ['user_id']);

  await db.schema
    .createTable('otps')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id'))
    .addColumn('purpose', t.text, (c) => c.notNull())
    .addColumn('code_hash', t.text, (c) => c.notNull())
    .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', t.big, (c) => c.notNull())
    .addColumn('consumed_at', t.big)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'otps', ['user_id', 'purpose']);

  await db.schema
    .createTable('outbox')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id)
    .addColumn('channel', t.text, (c) => c.notNull())
    .addColumn('recipient', t.text, (c) => c.notNull())
    .addColumn('subject', t.text)
    .addColumn('body', t.text, (c) => c.notNull())
    .addColumn('attachments', t.text)
    .addColumn('sensitive', t.flag, flag(0))
    .addColumn('status', t.text, (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', t.text)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('sent_at', t.big)
    .execute();
  await index(db, 'outbox', ['status', 'created_at']);
  await index(db, 'outbox', ['recipient']);

  await db.schema
    .createTable('change_log')
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('version', t.big, (c) => c.notNull())
    .addColumn('entity', t.text, (c) => c.notNull())
    .addColumn('entity_id', t.id, (c) => c.notNull())
    .addColumn('op', t.text, (c) => c.notNull())
    .addColumn('store_id', t.id)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__change_log', ['org_id', 'version'])
    .execute();
  await index(db, 'change_log', ['created_at']);

  await db.schema
    .createTable('audit_log')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id)
    .addColumn('store_id', t.id)
    .addColumn('user_id', t.id)
    .addColumn('action', t.text, (c) => c.notNull())
    .addColumn('entity', t.text)
    .addColumn('entity_id', t.id)
    .addColumn('description', t.text, (c) => c.notNull())
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'audit_log', ['org_id', 'user_id', 'created_at']);

  await db.schema
    .createTable('ai_credit_usage')
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('month', t.text, (c) => c.notNull())
    .addColumn('used', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('tokens', t.big, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('pk__ai_credit_usage', ['org_id', 'month'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'ai_credit_usage',
    'audit_log',
    'change_log',
    'outbox',
    'otps',
    'refresh_tokens',
    'users',
    'stores',
    'organisations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

/**
 * Real SMS (issue 15): an outbox message remembers which gateway and account took it, the
 * gateway's id and delivery report, what it cost, and when to try again; an organisation can
 * send its customer messages through its own gateway account; a credit reminder points at the
 * message that carries it, so its status is the message's. Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type] of [
    ['provider', t.text],
    ['account', t.text],
    ['provider_message_id', t.text],
    ['delivery_status', t.text],
    ['delivery_detail', t.text],
    ['delivered_at', t.big],
    ['segments', t.int],
    ['cost_cents', t.big],
    ['next_attempt_at', t.big],
  ] as const) {
    await db.schema.alterTable('outbox').addColumn(name, type).execute();
  }
  // A shop's message to its customer (a reminder, a receipt), as against codes and platform notices.
  await db.schema.alterTable('outbox').addColumn('for_customer', t.flag, flag(0)).execute();
  await index(db, 'outbox', ['provider', 'provider_message_id']);
  await index(db, 'outbox', ['org_id', 'channel', 'created_at']);
  await db.schema.alterTable('organisations').addColumn('sms_provider', t.text).execute();
  await db.schema.alterTable('organisations').addColumn('sms_api_secret_enc', t.text).execute();
  await db.schema.alterTable('credit_messages').addColumn('outbox_id', t.id).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('credit_messages').dropColumn('outbox_id').execute();
  await db.schema.alterTable('organisations').dropColumn('sms_api_secret_enc').execute();
  await db.schema.alterTable('organisations').dropColumn('sms_provider').execute();
  await db.schema.dropIndex('ix__outbox__org_id_channel_created_at').execute();
  await db.schema.dropIndex('ix__outbox__provider_provider_message_id').execute();
  for (const name of [
    'for_customer',
    'next_attempt_at',
    'cost_cents',
    'segments',
    'delivered_at',
    'delivery_detail',
    'delivery_status',
    'provider_message_id',
    'account',
    'provider',
  ]) {
    await db.schema.alterTable('outbox').dropColumn(name).execute();
  }
}

/**
 * AI assistant conversations (one user's, within the organisation) and their messages, ordered by
 * `seq` within a conversation. Frozen.
 */
import type { Kysely } from 'kysely';
import { flag, index, t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ai_conversations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('store_id', t.id)
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id'))
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('is_active', t.flag, flag(1))
    .addColumn('message_count', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('last_seq', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_used', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('updated_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'ai_conversations', ['org_id', 'user_id', 'updated_at']);

  await db.schema
    .createTable('ai_messages')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('conversation_id', t.id, (c) => c.notNull().references('ai_conversations.id'))
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('seq', t.int, (c) => c.notNull())
    .addColumn('role', t.text, (c) => c.notNull())
    .addColumn('content', t.text, (c) => c.notNull())
    .addColumn('source', t.text)
    .addColumn('tokens_used', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .execute();
  await index(db, 'ai_messages', ['conversation_id', 'seq']);
  await index(db, 'ai_messages', ['org_id', 'created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ai_messages').execute();
  await db.schema.dropTable('ai_conversations').execute();
}

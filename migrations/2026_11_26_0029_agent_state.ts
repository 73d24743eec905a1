/**
 * The companion agent's memory, so that any agent instance can answer a follow-up or carry out a
 * confirmation: its conversations (one user's, forgotten an hour after their last use) with their
 * last few turns, and its pending actions (a proposed write, its claim by the confirmation that
 * carries it out, and the outcome every later confirmation answers). Frozen.
 */
import type { Kysely } from 'kysely';
import { t } from './_helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('agent_conversations')
    .ifNotExists()
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id'))
    .addColumn('last_seq', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('expires_at', t.big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ix__agent_conversations__expires_at').ifNotExists().on('agent_conversations').column('expires_at').execute();

  await db.schema
    .createTable('agent_turns')
    .ifNotExists()
    .addColumn('conversation_id', t.id, (c) => c.notNull().references('agent_conversations.id'))
    .addColumn('seq', t.int, (c) => c.notNull())
    .addColumn('org_id', t.id, (c) => c.notNull())
    .addColumn('question', t.text, (c) => c.notNull())
    .addColumn('answer', t.text, (c) => c.notNull())
    .addColumn('language', t.text, (c) => c.notNull())
    .addColumn('topic', t.text)
    .addColumn('subject', t.text)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addPrimaryKeyConstraint('pk__agent_turns', ['conversation_id', 'seq'])
    .execute();

  await db.schema
    .createTable('agent_actions')
    .ifNotExists()
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('org_id', t.id, (c) => c.notNull().references('organisations.id'))
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id'))
    .addColumn('conversation_id', t.id)
    .addColumn('tool', t.text, (c) => c.notNull())
    .addColumn('arguments', t.text, (c) => c.notNull())
    .addColumn('summary', t.text, (c) => c.notNull())
    .addColumn('language', t.text, (c) => c.notNull())
    .addColumn('state', t.text, (c) => c.notNull().defaultTo('pending'))
    .addColumn('claim_id', t.id)
    .addColumn('lease_until', t.big)
    .addColumn('outcome', t.text)
    .addColumn('created_at', t.big, (c) => c.notNull())
    .addColumn('expires_at', t.big, (c) => c.notNull())
    .addColumn('keep_until', t.big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ix__agent_actions__keep_until').ifNotExists().on('agent_actions').column('keep_until').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('agent_actions').ifExists().execute();
  await db.schema.dropTable('agent_turns').ifExists().execute();
  await db.schema.dropTable('agent_conversations').ifExists().execute();
}

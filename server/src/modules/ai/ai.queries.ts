/** Reads and writes of AI conversations, messages and the monthly credit counter. */
import { newId } from '@duka/shared';
import type { AiAnswerSource, AiConversation, AiConversationSummary, AiMessage, AiRole, UpdateAiConversationInput } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { iso } from '../../lib/clock.js';
import type { AiConversationRow, AiMessageRow } from '../../db/tables/ai.table.js';

export interface Owner {
  orgId: string;
  userId: string;
}

/** The conversation when it is this user's, in their organisation; undefined otherwise. */
export function findOwnConversation(db: Kysely<Database>, owner: Owner, id: string) {
  return db
    .selectFrom('ai_conversations')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('user_id', '=', owner.userId)
    .executeTakeFirst();
}

export function messagesOf(db: Kysely<Database>, orgId: string, conversationId: string) {
  return db
    .selectFrom('ai_messages')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('conversation_id', '=', conversationId)
    .orderBy('seq')
    .execute();
}

export function toMessage(row: AiMessageRow): AiMessage {
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    source: row.source,
    tokens_used: Number(row.tokens_used),
    created_at: iso(Number(row.created_at)),
  };
}

export function toSummary(row: AiConversationRow): AiConversationSummary {
  return {
    id: row.id,
    title: row.title,
    message_count: Number(row.message_count),
    is_active: row.is_active === 1,
    tokens_used: Number(row.tokens_used),
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

export function toConversation(row: AiConversationRow, messages: AiMessageRow[]): AiConversation {
  return { ...toSummary(row), messages: messages.map(toMessage) };
}

/**
 * Take one credit of `month`: the row is created at 0 if missing, then raised by one only while
 * `used < allocated` (one conditional UPDATE, so two concurrent messages cannot both take the
 * last credit). Answers false when none is left.
 */
export async function takeCredit(db: Kysely<Database>, orgId: string, month: string, allocated: number): Promise<boolean> {
  await db
    .insertInto('ai_credit_usage')
    .values({ org_id: orgId, month, used: 0, tokens: 0 })
    .onConflict((oc) => oc.columns(['org_id', 'month']).doNothing())
    .execute();
  const taken = await db
    .updateTable('ai_credit_usage')
    .set((eb) => ({ used: eb('used', '+', 1) }))
    .where('org_id', '=', orgId)
    .where('month', '=', month)
    .where('used', '<', allocated)
    .returning('used')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Give back a credit taken for a message whose answer failed. */
export async function giveBackCredit(db: Kysely<Database>, orgId: string, month: string): Promise<void> {
  await db
    .updateTable('ai_credit_usage')
    .set((eb) => ({ used: eb('used', '-', 1) }))
    .where('org_id', '=', orgId)
    .where('month', '=', month)
    .where('used', '>', 0)
    .execute();
}

export async function addTokens(db: Kysely<Database>, orgId: string, month: string, tokens: number): Promise<void> {
  if (tokens <= 0) return;
  await db
    .updateTable('ai_credit_usage')
    .set((eb) => ({ tokens: eb('tokens', '+', tokens) }))
    .where('org_id', '=', orgId)
    .where('month', '=', month)
    .execute();
}

export function monthUsage(db: Kysely<Database>, orgId: string, month: string) {
  return db
    .selectFrom('ai_credit_usage')
    .select(['used', 'tokens'])
    .where('org_id', '=', orgId)
    .where('month', '=', month)
    .executeTakeFirst();
}

/** Append a message: the conversation's counters move in the same statement that hands out its `seq`. */
export async function appendMessage(
  db: Kysely<Database>,
  conv: { id: string; orgId: string },
  m: { role: AiRole; content: string; source: AiAnswerSource | null; tokens: number; at: number },
): Promise<AiMessageRow> {
  const bumped = await db
    .updateTable('ai_conversations')
    .set((eb) => ({
      last_seq: eb('last_seq', '+', 1),
      message_count: eb('message_count', '+', 1),
      tokens_used: eb('tokens_used', '+', m.tokens),
      updated_at: m.at,
    }))
    .where('org_id', '=', conv.orgId)
    .where('id', '=', conv.id)
    .returning('last_seq')
    .executeTakeFirstOrThrow();
  const row = {
    id: newId(),
    conversation_id: conv.id,
    org_id: conv.orgId,
    seq: Number(bumped.last_seq),
    role: m.role,
    content: m.content,
    source: m.source,
    tokens_used: m.tokens,
    created_at: m.at,
  };
  await db.insertInto('ai_messages').values(row).execute();
  return row;
}

/** Rename, archive or bring back a conversation (only what `input` names), answering its row. */
export function updateConversationRow(db: Kysely<Database>, orgId: string, id: string, input: UpdateAiConversationInput, now: number) {
  return db
    .updateTable('ai_conversations')
    .set({
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.is_active !== undefined ? { is_active: input.is_active ? 1 : 0 } : {}),
      updated_at: now,
    })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Undo appendMessage of a user's message whose answer failed (`updatedAt`: the conversation's before it). */
export async function removeMessage(
  db: Kysely<Database>,
  orgId: string,
  conversationId: string,
  messageId: string,
  updatedAt: number,
): Promise<void> {
  await db.deleteFrom('ai_messages').where('org_id', '=', orgId).where('id', '=', messageId).execute();
  await db
    .updateTable('ai_conversations')
    .set((eb) => ({ message_count: eb('message_count', '-', 1), updated_at: updatedAt }))
    .where('org_id', '=', orgId)
    .where('id', '=', conversationId)
    .execute();
}

export async function deleteConversation(db: Kysely<Database>, orgId: string, conversationId: string): Promise<void> {
  await db.deleteFrom('ai_messages').where('org_id', '=', orgId).where('conversation_id', '=', conversationId).execute();
  await db.deleteFrom('ai_conversations').where('org_id', '=', orgId).where('id', '=', conversationId).execute();
}

/** Reading and editing your own conversations: another user's (or organisation's) id answers 404. */
import type { AiConversation, AiConversationList, ListAiConversationsQuery, UpdateAiConversationInput } from '@duka/shared';
import { pageMeta, type PageMeta } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { findOwnConversation, messagesOf, toConversation, toSummary, updateConversationRow } from '../ai.queries.js';
import { ownerOf } from './chat.js';

export async function listConversations(
  ctx: AuthedContext,
  q: ListAiConversationsQuery,
): Promise<{ data: AiConversationList; meta: PageMeta }> {
  const { orgId, userId } = ownerOf(ctx);
  let query = ctx.db.selectFrom('ai_conversations').where('org_id', '=', orgId).where('user_id', '=', userId);
  if (q.is_active !== undefined) query = query.where('is_active', '=', q.is_active ? 1 : 0);
  const [{ total }, rows] = await Promise.all([
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    query
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size)
      .execute(),
  ]);
  const count = Number(total);
  return { data: { conversations: rows.map(toSummary), count }, meta: pageMeta(q.page, q.page_size, count) };
}

export async function getConversation(ctx: AuthedContext, id: string): Promise<AiConversation> {
  const owner = ownerOf(ctx);
  const row = await findOwnConversation(ctx.db, owner, id);
  if (!row) throw new NotFoundError('conversation');
  return toConversation(row, await messagesOf(ctx.db, owner.orgId, id));
}

/** Rename, archive (`is_active` false) or bring back a conversation. */
export async function updateConversation(ctx: AuthedContext, id: string, input: UpdateAiConversationInput): Promise<AiConversation> {
  const owner = ownerOf(ctx);
  return withTransaction(ctx, async (tx) => {
    const row = await findOwnConversation(tx.db, owner, id);
    if (!row) throw new NotFoundError('conversation');
    const updated = await updateConversationRow(tx.db, owner.orgId, id, input, tx.clock.now());
    return toConversation(updated, await messagesOf(tx.db, owner.orgId, id));
  });
}

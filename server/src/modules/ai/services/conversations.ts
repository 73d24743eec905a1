/** Reading and editing your own conversations: another user's (or organisation's) id answers 404. */
import type { AiConversation, AiConversationList, ListAiConversationsQuery, PageMeta, UpdateAiConversationInput } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { findOwnConversation, messagesOf, toConversation, toSummary, updateConversationRow } from '../ai.queries.js';
import { ownerOf } from './chat.js';
import { countedPage } from '../../../db/page.js';

export async function listConversations(
  ctx: AuthedContext,
  q: ListAiConversationsQuery,
): Promise<{ data: AiConversationList; meta: PageMeta }> {
  const { orgId, userId } = ownerOf(ctx);
  let query = ctx.db.selectFrom('ai_conversations').where('org_id', '=', orgId).where('user_id', '=', userId);
  if (q.is_active !== undefined) query = query.where('is_active', '=', q.is_active ? 1 : 0);
  const { rows, total, meta } = await countedPage(query, query.selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc'), q);
  return { data: { conversations: rows.map(toSummary), count: total }, meta };
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

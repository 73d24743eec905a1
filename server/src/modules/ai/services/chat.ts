/**
 * A chat message, in three steps:
 * 1. one transaction takes a credit of this month (402 PLAN_LIMIT when none is left,
 *    nothing written), creates the conversation when it is new and stores the user's message;
 * 2. the answer is produced outside any transaction (the local answerer, or the gateway when the
 *    organisation has a key);
 * 3. a second transaction stores the assistant's message and the gateway tokens.
 * When the answer fails (gateway down, refused, timed out), a compensating transaction gives the
 * credit back and removes the user's message (and the conversation if this message started it):
 * the request answers 503 SERVICE_UNAVAILABLE and leaves things as they were, to be sent again.
 */
import type { AiAnswerSource, AiChatInput, AiContinueInput, AiConversation } from '@duka/shared';
import { newId } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { requireOrg } from '../../../lib/auth/authorize.js';
import { InvalidStateError, NotFoundError, ServiceError } from '../../../lib/errors.js';
import { findOrganisation } from '../../tenancy/tenancy.exports.js';
import { getAiCredits } from '../../accounts/accounts.exports.js';
import { planInForce, refuseUnlessAllowed } from '../../billing/billing.exports.js';
import {
  addTokens,
  appendMessage,
  deleteConversation,
  findOwnConversation,
  giveBackCredit,
  messagesOf,
  removeMessage,
  takeCredit,
  toConversation,
} from '../ai.queries.js';
import { AiGatewayError, answerWithGateway } from './gateway-answerer.js';
import { answerLocally } from './local-answerer.js';

export function ownerOf(ctx: AuthedContext) {
  return { orgId: requireOrg(ctx), userId: ctx.actor.userId };
}

/** A title from the first message: its first line, at most 60 characters. */
const titleFrom = (message: string) => {
  const line = message.split('\n')[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 57).trimEnd()}…` : line;
};

export const startChat = (ctx: AuthedContext, input: AiChatInput) => send(ctx, null, input.message, input.title);
export const continueChat = (ctx: AuthedContext, id: string, input: AiContinueInput) => send(ctx, id, input.message);

async function send(ctx: AuthedContext, conversationId: string | null, message: string, title?: string): Promise<AiConversation> {
  const owner = ownerOf(ctx);
  const credits = await getAiCredits(ctx);
  const org = await findOrganisation(ctx.db, owner.orgId);
  if (!org) throw new NotFoundError('organisation');

  // 1. The credit and the question, together or not at all.
  const asked = await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    let conv = conversationId ? await findOwnConversation(tx.db, owner, conversationId) : undefined;
    if (conversationId && !conv) throw new NotFoundError('conversation');
    if (conv && conv.is_active !== 1) throw new InvalidStateError('this conversation is archived; set is_active to true to continue it');
    if (!(await takeCredit(tx.db, owner.orgId, credits.month, credits.allocated))) {
      // 402 PLAN_LIMIT naming the plan that gives more credits (the rule in shared/src/billing).
      refuseUnlessAllowed(await planInForce(tx.db, owner.orgId), 'ai_credits', credits.allocated, 1, credits.allocated);
    }
    const created = !conv;
    if (!conv) {
      conv = {
        id: newId(),
        org_id: owner.orgId,
        store_id: ctx.actor.storeId,
        user_id: owner.userId,
        title: title ?? titleFrom(message),
        is_active: 1,
        message_count: 0,
        last_seq: 0,
        tokens_used: 0,
        created_at: now,
        updated_at: now,
      };
      await tx.db.insertInto('ai_conversations').values(conv).execute();
    }
    const question = await appendMessage(
      tx.db,
      { id: conv.id, orgId: owner.orgId },
      { role: 'user', content: message, source: null, tokens: 0, at: now },
    );
    const history = await messagesOf(tx.db, owner.orgId, conv.id);
    return { conv, created, questionId: question.id, previousUpdatedAt: conv.updated_at, history };
  });

  // 2. The answer.
  let answer: { content: string; source: AiAnswerSource; tokens: number };
  try {
    if (org.aigateway_api_key_enc) {
      let key: string;
      try {
        key = ctx.keys.decrypt(org.aigateway_api_key_enc);
      } catch {
        throw new AiGatewayError('the stored AI gateway key cannot be read; set it again in the organisation settings');
      }
      const history = asked.history.map((m) => ({ role: m.role, content: m.content }));
      const out = await answerWithGateway(ctx, key, org.name, history);
      answer = { content: out.content, source: 'gateway', tokens: out.tokens };
    } else {
      answer = { content: await answerLocally(ctx, message), source: 'local', tokens: 0 };
    }
  } catch (err) {
    // Compensation: the credit back, the question gone; the error as it was.
    await withTransaction(ctx, async (tx) => {
      await giveBackCredit(tx.db, owner.orgId, credits.month);
      if (asked.created) await deleteConversation(tx.db, owner.orgId, asked.conv.id);
      else await removeMessage(tx.db, owner.orgId, asked.conv.id, asked.questionId, asked.previousUpdatedAt);
    });
    if (err instanceof AiGatewayError)
      throw new AiGatewayError(`${err.message}; your credit was given back, send the message again`, err.upstreamStatus);
    if (err instanceof ServiceError) throw err;
    ctx.log.error({ err, req_id: ctx.requestId }, 'AI answer failed');
    throw new AiGatewayError('the assistant could not answer; your credit was given back, send the message again');
  }

  // 3. The answer stored.
  return withTransaction(ctx, async (tx) => {
    await appendMessage(tx.db, { id: asked.conv.id, orgId: owner.orgId }, { ...answer, role: 'assistant', at: tx.clock.now() });
    await addTokens(tx.db, owner.orgId, credits.month, answer.tokens);
    const row = await findOwnConversation(tx.db, owner, asked.conv.id);
    return toConversation(row!, await messagesOf(tx.db, owner.orgId, asked.conv.id));
  });
}

/** Prompt suggestions with the month's credits, and the month's usage. */
import type { AgentUsageInput, AiSuggestions, AiUsage } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { planInForce, refuseUnlessAllowed } from '../../billing/billing.exports.js';
import { findOrganisation } from '../../tenancy/tenancy.exports.js';
import { getAiCredits } from '../../accounts/accounts.exports.js';
import { addTokens, monthUsage, takeCredit } from '../ai.queries.js';
import { ownerOf } from './chat.js';

const SUGGESTIONS: AiSuggestions['suggestions'] = [
  { text: 'How are sales today compared with yesterday?', language: 'en', topic: 'sales_today' },
  { text: 'Mauzo ya leo ni kiasi gani?', language: 'sw', topic: 'sales_today' },
  { text: 'Which products are low in stock?', language: 'en', topic: 'low_stock' },
  { text: 'Bidhaa zipi zinaisha?', language: 'sw', topic: 'low_stock' },
  { text: 'What are my top products this week?', language: 'en', topic: 'top_products' },
  { text: 'Bidhaa zipi zinauzwa zaidi?', language: 'sw', topic: 'top_products' },
  { text: 'Who owes me money?', language: 'en', topic: 'customer_credit' },
  { text: 'Nani wanadaiwa deni?', language: 'sw', topic: 'customer_credit' },
];

export async function getSuggestions(ctx: AuthedContext): Promise<AiSuggestions> {
  const { orgId } = ownerOf(ctx);
  const [credits, org] = await Promise.all([getAiCredits(ctx), findOrganisation(ctx.db, orgId)]);
  return { suggestions: SUGGESTIONS, mode: org?.aigateway_api_key_enc ? 'gateway' : 'local', credits };
}

/** Tokens and credits: the organisation's, this month (the `ai_credit_usage` row); conversations: the caller's own. */
export async function getUsage(ctx: AuthedContext): Promise<AiUsage> {
  const { orgId, userId } = ownerOf(ctx);
  const credits = await getAiCredits(ctx);
  const [usage, conversations] = await Promise.all([
    monthUsage(ctx.db, orgId, credits.month),
    ctx.db
      .selectFrom('ai_conversations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    tokens_used: Number(usage?.tokens ?? 0),
    conversations_count: Number(conversations.n),
    credits_used: credits.used,
    credits_remaining: credits.remaining,
    credits_allocated: credits.allocated,
    month: credits.month,
  };
}

/**
 * A companion-agent question in the organisation's usage, the same counter as chat messages: one
 * credit (402 when none is left, nothing written) and its model's tokens, together. Any signed-in
 * member: the agent records with the caller's own token.
 */
export async function recordAgentUsage(ctx: AuthedContext, input: AgentUsageInput): Promise<AiUsage> {
  const { orgId } = ownerOf(ctx);
  const credits = await getAiCredits(ctx);
  await withTransaction(ctx, async (tx) => {
    if (input.questions > 0 && !(await takeCredit(tx.db, orgId, credits.month, credits.allocated))) {
      refuseUnlessAllowed(await planInForce(tx.db, orgId), 'ai_credits', credits.allocated, 1, credits.allocated);
    }
    if (input.questions === 0) {
      // Tokens alone: addTokens moves an existing row only, and this month's may not exist yet.
      await tx.db
        .insertInto('ai_credit_usage')
        .values({ org_id: orgId, month: credits.month, used: 0, tokens: 0 })
        .onConflict((oc) => oc.columns(['org_id', 'month']).doNothing())
        .execute();
    }
    await addTokens(tx.db, orgId, credits.month, input.tokens_used);
  });
  return getUsage(ctx);
}

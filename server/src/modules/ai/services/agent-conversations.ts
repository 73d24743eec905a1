/**
 * The companion agent's conversations, kept here so that any agent instance can answer a
 * follow-up: each is one user's, keeps its last few turns and is forgotten an hour after its last
 * use. Another user's id, or an expired one, is as unknown as a made-up one.
 */
import type { AgentConversation, AgentTurn } from '@duka/shared';
import { newId } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { iso } from '../../../lib/clock.js';
import { NotFoundError } from '../../../lib/errors.js';
import { agentTurnsOf, appendAgentTurn, findOwnAgentConversation, insertAgentConversation, toAgentTurn } from '../agent-state.queries.js';
import { ownerOf } from './chat.js';

/** How long a conversation is kept after its last turn. */
export const AGENT_CONVERSATION_IDLE_MS = 60 * 60 * 1000;

export async function startAgentConversation(ctx: AuthedContext): Promise<AgentConversation> {
  const owner = ownerOf(ctx);
  const id = newId();
  const now = ctx.clock.now();
  const expiresAt = now + AGENT_CONVERSATION_IDLE_MS;
  await withTransaction(ctx, (tx) => insertAgentConversation(tx.db, owner, id, now, expiresAt));
  return { id, turns: [], expires_at: iso(expiresAt) };
}

export async function getAgentConversation(ctx: AuthedContext, id: string): Promise<AgentConversation> {
  const owner = ownerOf(ctx);
  const row = await findOwnAgentConversation(ctx.db, owner, id, ctx.clock.now());
  if (!row) throw new NotFoundError('conversation');
  return { id, turns: (await agentTurnsOf(ctx.db, owner.orgId, id)).map(toAgentTurn), expires_at: iso(Number(row.expires_at)) };
}

export async function addAgentTurn(ctx: AuthedContext, id: string, turn: AgentTurn): Promise<AgentConversation> {
  const owner = ownerOf(ctx);
  await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    if (!(await appendAgentTurn(tx.db, owner, id, turn, now, now + AGENT_CONVERSATION_IDLE_MS))) throw new NotFoundError('conversation');
  });
  return getAgentConversation(ctx, id);
}

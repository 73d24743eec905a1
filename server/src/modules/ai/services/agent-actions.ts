/**
 * The companion agent's pending actions: a write it proposed, waiting for its user's confirmation,
 * kept here so that a confirmation reaching any agent instance carries it out, and only once.
 *
 * A confirmation first claims the action. One conditional UPDATE decides the claim, so of two
 * confirmations at once (on two instances) exactly one is `granted`: it carries the write out and
 * records the outcome; the other is told `executing` and asks again until the outcome is there
 * (`done`). A claim holds a lease: when its executor dies without recording an outcome (the agent
 * crashed, or the API never answered it), the next confirmation after the lease may claim it again,
 * even past the proposal's expiry, since its user did confirm in time; the agent's Idempotency-Key
 * (made from the action's id) makes the API replay a write it did get rather than repeat it.
 */
import type { AgentAction, AgentActionClaim, AgentActionInput, AgentOutcomeInput } from '@duka/shared';
import { newId } from '@duka/shared';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthedContext } from '../../../lib/context.js';
import { InvalidStateError, NotFoundError, ServiceError, ValidationError } from '../../../lib/errors.js';
import {
  claimAgentActionRow,
  findOwnAgentAction,
  findOwnAgentConversation,
  insertAgentAction,
  settleAgentActionRow,
  toAgentAction,
} from '../agent-state.queries.js';
import { ownerOf } from './chat.js';

/** How long a claim may carry the write out before another confirmation may take over (beyond the agent's own API timeouts). */
export const AGENT_CLAIM_LEASE_MS = 60_000;
/** How long an action is remembered after its expiry or its last claim: a late confirmation is told 410, a repeated one the outcome. */
export const AGENT_ACTION_KEEP_MS = 60 * 60 * 1000;
const MAX_ARGUMENTS_CHARS = 16_000;

export async function proposeAgentAction(ctx: AuthedContext, input: AgentActionInput): Promise<AgentAction> {
  const owner = ownerOf(ctx);
  const args = JSON.stringify(input.arguments);
  if (args.length > MAX_ARGUMENTS_CHARS)
    throw new ValidationError('arguments', `must be at most ${MAX_ARGUMENTS_CHARS} characters of JSON`);
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    if (input.conversation_id && !(await findOwnAgentConversation(tx.db, owner, input.conversation_id, now)))
      throw new NotFoundError('conversation');
    const expiresAt = now + input.ttl_seconds * 1000;
    const row = await insertAgentAction(tx.db, {
      id: newId(),
      org_id: owner.orgId,
      user_id: owner.userId,
      conversation_id: input.conversation_id ?? null,
      tool: input.tool,
      arguments: args,
      summary: input.summary,
      language: input.language,
      created_at: now,
      expires_at: expiresAt,
      keep_until: expiresAt + AGENT_ACTION_KEEP_MS,
    });
    return toAgentAction(row);
  });
}

export async function claimAgentAction(ctx: AuthedContext, id: string): Promise<AgentActionClaim> {
  const owner = ownerOf(ctx);
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const claimId = newId();
    const won = await claimAgentActionRow(tx.db, owner, id, {
      claimId,
      now,
      leaseUntil: now + AGENT_CLAIM_LEASE_MS,
      keepUntil: now + AGENT_ACTION_KEEP_MS,
    });
    if (won) return { claim: 'granted', claim_id: claimId, action: toAgentAction(won) };
    const row = await findOwnAgentAction(tx.db, owner, id, now);
    if (!row) throw new NotFoundError('pending action');
    if (row.state === 'pending') throw new ServiceError('EXPIRED', 'this change was not confirmed in time');
    return { claim: row.state, claim_id: null, action: toAgentAction(row) };
  });
}

/** The outcome of a granted claim; the first recorded outcome stands, and a repeat answers it. */
export async function recordAgentActionOutcome(ctx: AuthedContext, id: string, input: AgentOutcomeInput): Promise<AgentAction> {
  const owner = ownerOf(ctx);
  const { claim_id, ...outcome } = input;
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const settled = await settleAgentActionRow(tx.db, owner, id, claim_id, outcome, now + AGENT_ACTION_KEEP_MS);
    if (settled) return toAgentAction(settled);
    const row = await findOwnAgentAction(tx.db, owner, id, now);
    if (!row) throw new NotFoundError('pending action');
    if (row.state === 'done') return toAgentAction(row);
    throw new InvalidStateError('this confirmation does not hold the action: claim it first');
  });
}

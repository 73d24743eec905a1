/**
 * Reads and writes of the companion agent's memory: conversations with their last turns, and
 * pending actions with their claim and outcome. Every read is scoped to its owner (organisation and
 * user) and ignores what has expired, so a row the prune has not reached yet is already unknown.
 */
import { AGENT_TURNS_KEPT, type AgentAction, type AgentActionOutcome, type AgentTurn } from '@duka/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { crossOrg } from '../../db/tenant-scope-check.js';
import type { AgentActionRow, AgentActionTable, AgentTurnRow } from '../../db/tables/ai.table.js';
import { iso } from '../../lib/clock.js';
import type { Owner } from './ai.queries.js';

type Db = Kysely<Database>;

export function findOwnAgentConversation(db: Db, owner: Owner, id: string, now: number) {
  return db
    .selectFrom('agent_conversations')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('user_id', '=', owner.userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export function agentTurnsOf(db: Db, orgId: string, conversationId: string) {
  return db
    .selectFrom('agent_turns')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('conversation_id', '=', conversationId)
    .orderBy('seq')
    .execute();
}

export function toAgentTurn(row: AgentTurnRow): AgentTurn {
  return {
    question: row.question,
    answer: row.answer,
    language: row.language,
    ...(row.topic ? { topic: row.topic } : {}),
    ...(row.subject ? { subject: row.subject } : {}),
  };
}

export async function insertAgentConversation(db: Db, owner: Owner, id: string, now: number, expiresAt: number) {
  await db
    .insertInto('agent_conversations')
    .values({ id, org_id: owner.orgId, user_id: owner.userId, created_at: now, expires_at: expiresAt })
    .execute();
}

/**
 * Append a turn to the owner's live conversation and drop those past the last few. The seq comes
 * from the same UPDATE that moves the expiry, so two appends at once get different seqs. Answers
 * false when the conversation is unknown, expired or someone else's.
 */
export async function appendAgentTurn(db: Db, owner: Owner, id: string, turn: AgentTurn, now: number, expiresAt: number): Promise<boolean> {
  const bumped = await db
    .updateTable('agent_conversations')
    .set((eb) => ({ last_seq: eb('last_seq', '+', 1), expires_at: expiresAt }))
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('user_id', '=', owner.userId)
    .where('expires_at', '>', now)
    .returning('last_seq')
    .executeTakeFirst();
  if (!bumped) return false;
  const seq = Number(bumped.last_seq);
  await db
    .insertInto('agent_turns')
    .values({
      conversation_id: id,
      seq,
      org_id: owner.orgId,
      question: turn.question,
      answer: turn.answer,
      language: turn.language,
      topic: turn.topic ?? null,
      subject: turn.subject ?? null,
      created_at: now,
    })
    .execute();
  await db
    .deleteFrom('agent_turns')
    .where('org_id', '=', owner.orgId)
    .where('conversation_id', '=', id)
    .where('seq', '<=', seq - AGENT_TURNS_KEPT)
    .execute();
  return true;
}

export async function insertAgentAction(
  db: Db,
  row: Omit<AgentActionTable, 'state' | 'claim_id' | 'lease_until' | 'outcome'>,
): Promise<AgentActionRow> {
  return db.insertInto('agent_actions').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findOwnAgentAction(db: Db, owner: Owner, id: string, now: number) {
  return db
    .selectFrom('agent_actions')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('user_id', '=', owner.userId)
    .where('keep_until', '>', now)
    .executeTakeFirst();
}

/**
 * Claim the action for one confirmation, in one conditional UPDATE: a pending action still within
 * its time, or one whose last claim's lease ran out with no outcome (its executor died). Two claims
 * at once cannot both match: the second sees the first's `executing`.
 */
export function claimAgentActionRow(
  db: Db,
  owner: Owner,
  id: string,
  claim: { claimId: string; now: number; leaseUntil: number; keepUntil: number },
) {
  const { now } = claim;
  return db
    .updateTable('agent_actions')
    .set({ state: 'executing', claim_id: claim.claimId, lease_until: claim.leaseUntil, keep_until: claim.keepUntil })
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('user_id', '=', owner.userId)
    .where('keep_until', '>', now)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'pending'), eb('expires_at', '>', now)]),
        eb.and([eb('state', '=', 'executing'), eb('lease_until', '<=', now)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Record the outcome of the claim `claimId` holds; undefined when it holds none (done already, or taken over). */
export function settleAgentActionRow(db: Db, owner: Owner, id: string, claimId: string, outcome: AgentActionOutcome, keepUntil: number) {
  return db
    .updateTable('agent_actions')
    .set({ state: 'done', outcome: JSON.stringify(outcome), lease_until: null, keep_until: keepUntil })
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('user_id', '=', owner.userId)
    .where('state', '=', 'executing')
    .where('claim_id', '=', claimId)
    .returningAll()
    .executeTakeFirst();
}

export function toAgentAction(row: AgentActionRow): AgentAction {
  return {
    id: row.id,
    tool: row.tool,
    arguments: JSON.parse(row.arguments) as Record<string, unknown>,
    summary: row.summary,
    language: row.language,
    conversation_id: row.conversation_id,
    expires_at: iso(Number(row.expires_at)),
    state: row.state,
    outcome: row.outcome == null ? null : (JSON.parse(row.outcome) as AgentActionOutcome),
  };
}

/** Delete what has expired in every organisation: conversations (and their turns) and actions past their keeping time. */
export async function deleteExpiredAgentState(db: Db, now: number): Promise<number> {
  const scan = crossOrg('job scan');
  const expired = db.selectFrom('agent_conversations').select('id').where('expires_at', '<=', now).modifyEnd(scan);
  await db.deleteFrom('agent_turns').where('conversation_id', 'in', expired).modifyEnd(scan).execute();
  const conversations = await db.deleteFrom('agent_conversations').where('expires_at', '<=', now).modifyEnd(scan).executeTakeFirst();
  const actions = await db.deleteFrom('agent_actions').where('keep_until', '<=', now).modifyEnd(scan).executeTakeFirst();
  return Number(conversations.numDeletedRows) + Number(actions.numDeletedRows);
}

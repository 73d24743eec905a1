/**
 * The companion agent's memory, kept by the API so that any agent instance can continue a
 * conversation or carry out a confirmed change: its conversations (the last few turns, for
 * follow-up questions) and its pending actions (a proposed write waiting for its user's
 * confirmation, carried out once).
 */
import { z } from 'zod';
import { orNull, Timestamp } from '../common.js';
import { AiLanguage } from './ai.schemas.js';

/** Turns a conversation keeps: a follow-up refers to the last answers, not to the whole history. */
export const AGENT_TURNS_KEPT = 6;
/** The longest answer a turn keeps (the agent shortens a longer one). */
export const AGENT_ANSWER_MAX = 20_000;

export const AgentTurn = z
  .object({
    question: z.string().min(1).max(2000),
    answer: z.string().max(AGENT_ANSWER_MAX),
    language: AiLanguage,
    topic: z.string().min(1).max(60).optional().meta({ description: "The built-in planner's topic, so 'and yesterday?' can reuse it" }),
    subject: z.string().min(1).max(200).optional().meta({ description: "The planner's subject (a product's name)" }),
  })
  .meta({ id: 'AgentTurn' });
export type AgentTurn = z.infer<typeof AgentTurn>;

export const AgentConversation = z
  .object({
    id: z.uuid(),
    turns: z
      .array(AgentTurn)
      .max(AGENT_TURNS_KEPT)
      .meta({ description: `The last ${AGENT_TURNS_KEPT} turns, oldest first` }),
    expires_at: Timestamp.meta({ description: 'Forgotten after an hour unused: each new turn moves this on' }),
  })
  .meta({ id: 'AgentConversation' });
export type AgentConversation = z.infer<typeof AgentConversation>;

export const AgentActionState = z.enum(['pending', 'executing', 'done']);
export type AgentActionState = z.infer<typeof AgentActionState>;

/** What carrying an action out answered: the API's status and message, and how long it took. */
export const AgentActionOutcome = z
  .object({
    status: z.int().min(100).max(599).meta({ description: 'HTTP status the write answered' }),
    message: z.string().max(1000),
    ms: z.int().min(0),
  })
  .meta({ id: 'AgentActionOutcome' });
export type AgentActionOutcome = z.infer<typeof AgentActionOutcome>;

export const AgentActionInput = z
  .object({
    tool: z.string().min(1).max(100).meta({ description: "The write's operationId", example: 'updateProduct' }),
    arguments: z.record(z.string(), z.unknown()),
    summary: z.string().min(1).max(1000).meta({ description: 'What the user is asked to confirm, in their language' }),
    language: AiLanguage,
    conversation_id: z.uuid().optional().meta({ description: 'The agent conversation it was proposed in; its confirmation continues it' }),
    ttl_seconds: z.int().min(10).max(86_400).meta({ description: 'How long it waits for its confirmation' }),
  })
  .meta({ id: 'AgentActionInput' });
export type AgentActionInput = z.infer<typeof AgentActionInput>;

export const AgentAction = z
  .object({
    id: z.uuid(),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    summary: z.string(),
    language: AiLanguage,
    conversation_id: z.uuid().nullable(),
    expires_at: Timestamp.meta({ description: 'A confirmation after this answers 410 `EXPIRED`' }),
    state: AgentActionState.meta({
      description: '`pending`: waiting for confirmation; `executing`: claimed by a confirmation; `done`: carried out, `outcome` set',
    }),
    outcome: orNull(AgentActionOutcome),
  })
  .meta({ id: 'AgentAction' });
export type AgentAction = z.infer<typeof AgentAction>;

export const AgentActionClaim = z
  .object({
    claim: z.enum(['granted', 'executing', 'done']).meta({
      description:
        '`granted`: this confirmation is the one to carry it out, then record the outcome with `claim_id`; `executing`: another confirmation holds it (ask again shortly); `done`: `action.outcome` is the result',
    }),
    claim_id: z.uuid().nullable().meta({ description: 'Set when granted: sent with the outcome' }),
    action: AgentAction,
  })
  .meta({ id: 'AgentActionClaim' });
export type AgentActionClaim = z.infer<typeof AgentActionClaim>;

export const AgentOutcomeInput = AgentActionOutcome.extend({ claim_id: z.uuid() }).meta({ id: 'AgentOutcomeInput' });
export type AgentOutcomeInput = z.infer<typeof AgentOutcomeInput>;

/**
 * Conversations, kept by the API (memory-api.ts): each belongs to the user who started it, keeps
 * its last 6 turns so a follow-up can refer to the last answer, and is forgotten after an hour
 * unused. Another user's id is as unknown as a made-up one. Any agent instance can continue one.
 */
import { AGENT_ANSWER_MAX, AgentConversation } from '@duka/shared';
import type { DukaApi } from '../api-client.js';
import type { Caller } from '../identity.js';
import { memoryCall, MemoryUnavailableError } from '../memory-api.js';
import type { Turn } from './types.js';

export type Conversation = AgentConversation;

export class Conversations {
  constructor(private readonly api: DukaApi) {}

  /** The user's conversation, or null when the id is unknown, expired or someone else's. */
  async get(caller: Caller, id: string): Promise<Conversation | null> {
    const res = await memoryCall(this.api, caller, 'get', `/ai/agent/conversations/${encodeURIComponent(id)}`, AgentConversation);
    if ('data' in res) return res.data;
    if (res.refused === 404) return null;
    throw new MemoryUnavailableError(res.refused);
  }

  async start(caller: Caller): Promise<Conversation> {
    const res = await memoryCall(this.api, caller, 'post', '/ai/agent/conversations', AgentConversation);
    if ('data' in res) return res.data;
    throw new MemoryUnavailableError(res.refused);
  }

  /** Add a turn (the oldest past 6 go). A conversation that expired meanwhile keeps nothing: a follow-up then starts afresh. */
  async add(caller: Caller, c: Conversation, turn: Turn): Promise<void> {
    const kept: Turn = {
      ...turn,
      answer: turn.answer.slice(0, AGENT_ANSWER_MAX),
      ...(turn.subject ? { subject: turn.subject.slice(0, 200) } : {}),
    };
    const res = await memoryCall(
      this.api,
      caller,
      'post',
      `/ai/agent/conversations/${encodeURIComponent(c.id)}/turns`,
      AgentConversation,
      kept,
    );
    if ('data' in res) c.turns = res.data.turns;
    else if (res.refused !== 404) throw new MemoryUnavailableError(res.refused);
  }
}

import type { AgentActionState, AiAnswerSource, AiLanguage, AiRole } from '@duka/shared';
import type { Generated, Selectable } from 'kysely';

/** A conversation with the AI assistant: one user's, within their organisation. */
export interface AiConversationTable {
  id: string;
  org_id: string;
  /** The store the user was working in when it started. */
  store_id: string | null;
  user_id: string;
  title: string;
  is_active: Generated<number>;
  message_count: Generated<number>;
  /** Highest `seq` handed out (messages removed after an upstream failure leave gaps). */
  last_seq: Generated<number>;
  /** Gateway tokens of the conversation's answers. */
  tokens_used: Generated<number>;
  created_at: number;
  updated_at: number;
}
export type AiConversationRow = Selectable<AiConversationTable>;

export interface AiMessageTable {
  id: string;
  conversation_id: string;
  org_id: string;
  /** Order within the conversation. */
  seq: number;
  role: AiRole;
  content: string;
  /** How an assistant message was produced: `local` (the shop's own data) or `gateway`; null for user messages. */
  source: AiAnswerSource | null;
  tokens_used: Generated<number>;
  created_at: number;
}
export type AiMessageRow = Selectable<AiMessageTable>;

/** A companion-agent conversation: one user's, within their organisation; forgotten at `expires_at` (an hour after its last turn). */
export interface AgentConversationTable {
  id: string;
  org_id: string;
  user_id: string;
  /** Highest turn `seq` handed out; turns older than the last few are deleted as new ones come. */
  last_seq: Generated<number>;
  created_at: number;
  expires_at: number;
}

export interface AgentTurnTable {
  conversation_id: string;
  seq: number;
  org_id: string;
  question: string;
  answer: string;
  language: AiLanguage;
  topic: string | null;
  subject: string | null;
  created_at: number;
}
export type AgentTurnRow = Selectable<AgentTurnTable>;

/** A write the companion agent proposed, waiting for its user's confirmation, carried out once. */
export interface AgentActionTable {
  id: string;
  org_id: string;
  user_id: string;
  conversation_id: string | null;
  tool: string;
  /** JSON object. */
  arguments: string;
  summary: string;
  language: AiLanguage;
  state: Generated<AgentActionState>;
  /** The confirmation carrying it out (`executing`), until `lease_until`. */
  claim_id: string | null;
  lease_until: number | null;
  /** JSON AgentActionOutcome once `done`. */
  outcome: string | null;
  created_at: number;
  /** The proposal's deadline for confirmation. */
  expires_at: number;
  /** When the row is forgotten (pruned; unknown to reads from then on). */
  keep_until: number;
}
export type AgentActionRow = Selectable<AgentActionTable>;

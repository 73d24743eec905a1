import type { AiAnswerSource, AiRole } from '@duka/shared';
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

/** The AI assistant: conversations, chat messages, prompt suggestions and usage. */
import { z } from 'zod';
import { Timestamp } from '../common.js';
import { PageQuery } from '../envelope.js';
import { QueryBool } from '../common.js';
import { AiCredits } from '../accounts/accounts.schemas.js';

/** Who wrote a chat message. */
export const AiRole = z.enum(['user', 'assistant']);
export type AiRole = z.infer<typeof AiRole>;
/** How an answer is produced: from the shop's own data (`local`) or through the organisation's AI gateway. */
export const AiAnswerSource = z.enum(['local', 'gateway']);
export type AiAnswerSource = z.infer<typeof AiAnswerSource>;
export const AiLanguage = z.enum(['en', 'sw']);
export type AiLanguage = z.infer<typeof AiLanguage>;

export const AiMessage = z
  .object({
    id: z.uuid(),
    role: AiRole,
    content: z.string().meta({ description: 'Plain text; figures in TZS with thousands separators' }),
    source: AiAnswerSource.nullable().meta({
      description:
        "How an answer was produced: `local` (from the shop's own data, no AI gateway key) or `gateway` (the organisation's AI gateway); null for the user's messages",
    }),
    tokens_used: z.int().meta({
      description:
        "Gateway tokens spent on this answer (`usage.total_tokens` summed over its rounds); 0 for local answers and the user's messages",
    }),
    created_at: Timestamp,
  })
  .meta({ id: 'AiMessage' });
export type AiMessage = z.infer<typeof AiMessage>;

const conversationFields = {
  id: z.uuid(),
  title: z.string(),
  message_count: z.int().meta({ description: "Messages in the conversation, the user's and the assistant's" }),
  is_active: z.boolean().meta({ description: 'false: archived (read-only until set back to true)' }),
  tokens_used: z.int().meta({ description: 'Gateway tokens spent on the whole conversation' }),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const AiConversation = z
  .object({ ...conversationFields, messages: z.array(AiMessage).meta({ description: 'Every message, oldest first' }) })
  .meta({ id: 'AiConversation' });
export type AiConversation = z.infer<typeof AiConversation>;

export const AiConversationSummary = z.object(conversationFields).meta({ id: 'AiConversationSummary' });
export type AiConversationSummary = z.infer<typeof AiConversationSummary>;

export const AiConversationList = z
  .object({
    conversations: z
      .array(AiConversationSummary)
      .meta({ description: 'Your conversations (never another user’s), most recently active first; without their messages' }),
    count: z.int().meta({ description: 'How many conversations match (all pages)' }),
  })
  .meta({ id: 'AiConversationList' });
export type AiConversationList = z.infer<typeof AiConversationList>;

export const ListAiConversationsQuery = PageQuery.extend({
  is_active: QueryBool.optional().meta({ description: 'true: only active; false: only archived; default both' }),
});
export type ListAiConversationsQuery = z.infer<typeof ListAiConversationsQuery>;

const ChatMessage = z
  .string()
  .trim()
  .min(1)
  .max(4000)
  .meta({ description: 'What you ask, in English or Swahili (1-4000 characters)', example: 'Mauzo ya leo ni kiasi gani?' });

export const AiChatInput = z
  .object({
    message: ChatMessage,
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Title of the new conversation; default the start of the message' }),
  })
  .meta({ id: 'AiChatInput' });
export type AiChatInput = z.infer<typeof AiChatInput>;

export const AiContinueInput = z.object({ message: ChatMessage }).meta({ id: 'AiContinueInput' });
export type AiContinueInput = z.infer<typeof AiContinueInput>;

export const UpdateAiConversationInput = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    is_active: z.boolean().optional().meta({ description: 'false archives the conversation; true brings it back' }),
  })
  .refine((v) => v.title !== undefined || v.is_active !== undefined, 'send title or is_active')
  .meta({ id: 'UpdateAiConversationInput' });
export type UpdateAiConversationInput = z.infer<typeof UpdateAiConversationInput>;

export const AiSuggestion = z
  .object({
    text: z.string().meta({ example: 'Mauzo ya leo ni kiasi gani?' }),
    language: AiLanguage,
    topic: z.enum(['sales_today', 'low_stock', 'top_products', 'customer_credit']),
  })
  .meta({ id: 'AiSuggestion' });

export const AiSuggestions = z
  .object({
    suggestions: z.array(AiSuggestion).meta({ description: 'Prompts the assistant answers well, in English and Swahili' }),
    mode: AiAnswerSource.meta({
      description: '`gateway` when the organisation has an AI gateway key; `local` answers from the shop’s own data without one',
    }),
    credits: AiCredits,
  })
  .meta({ id: 'AiSuggestions' });
export type AiSuggestions = z.infer<typeof AiSuggestions>;

export const AiUsage = z
  .object({
    tokens_used: z
      .int()
      .meta({ description: 'Gateway tokens the organisation used this month (organisation time zone); local answers use none' }),
    conversations_count: z.int().meta({ description: 'Your conversations (active and archived), as GET /ai/conversations counts them' }),
    credits_used: z
      .int()
      .meta({ description: "The organisation's credits used this month (one per chat message or companion-agent question)" }),
    credits_remaining: z.int(),
    credits_allocated: z.int(),
    month: z.string().meta({ example: '2026-11' }),
  })
  .meta({ id: 'AiUsage' });
export type AiUsage = z.infer<typeof AiUsage>;

/**
 * What the companion agent records of an answered question in the organisation's AI usage: the
 * question (one credit, as a chat message) and its model's tokens.
 */
export const AgentUsageInput = z
  .object({
    questions: z
      .int()
      .min(0)
      .max(1)
      .default(0)
      .meta({ description: "Count one question: takes one of the month's AI credits (402 `PLAN_LIMIT` when none is left)" }),
    tokens_used: z
      .int()
      .min(0)
      .max(10_000_000)
      .default(0)
      .meta({ description: "Model tokens the agent's question used (`usage.total_tokens` summed)" }),
  })
  .refine((v) => v.questions > 0 || v.tokens_used > 0, { message: 'record a question or some tokens', path: ['questions'] })
  .meta({ id: 'AgentUsageInput' });
export type AgentUsageInput = z.infer<typeof AgentUsageInput>;

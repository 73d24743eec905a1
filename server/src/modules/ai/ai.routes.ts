import {
  AgentUsageInput,
  AiChatInput,
  AiContinueInput,
  AiConversation,
  AiConversationList,
  AiSuggestions,
  AiUsage,
  Envelope,
  IdParam,
  ListAiConversationsQuery,
  PageMeta,
  UpdateAiConversationInput,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['AI assistant'];

const CHAT_NOTES = [
  "Costs one of the organisation's monthly AI credits: 402 `PLAN_LIMIT` when none is left, naming the plan that gives more (nothing is stored).",
  "Without an AI gateway key the assistant answers from the shop's own records (sales today against yesterday, low stock, top products of the last 7 days, customers who owe money), in English or Swahili as asked;",
  "with a key it asks the organisation's OpenAI-compatible gateway, which may use the same figures as tools.",
  'When the gateway fails, times out or cannot be reached: 503 `SERVICE_UNAVAILABLE` (`meta.reason` `AI_GATEWAY_ERROR`, `meta.upstream_status` when it answered), the credit is given back and the message is not kept: send it again.',
].join(' ');

export const startChat = defineRoute('bearer', {
  idempotency: 'none',
  method: 'post',
  path: '/ai/chat',
  operationId: 'askAssistant',
  errors: ['INVALID_STATE', 'NOT_FOUND', 'PLAN_LIMIT', 'SERVICE_UNAVAILABLE'],
  tags,
  summary: 'Ask the assistant in a new conversation',
  description: CHAT_NOTES,
  request: { body: jsonBody(AiChatInput, { message: 'Mauzo ya leo ni kiasi gani?', title: "Today's sales" }) },
  responses: { 200: jsonResponse(Envelope(AiConversation), 'The new conversation: your message and the answer') },
});

export const continueChat = defineRoute('bearer', {
  idempotency: 'none',
  method: 'post',
  path: '/ai/conversations/{id}/chat',
  operationId: 'continueConversation',
  errors: ['INVALID_STATE', 'PLAN_LIMIT', 'SERVICE_UNAVAILABLE'],
  tags,
  summary: 'Ask the assistant in one of your conversations',
  description: `${CHAT_NOTES} Another user's conversation: 404; an archived one: 409 \`INVALID_STATE\`.`,
  request: { params: IdParam, body: jsonBody(AiContinueInput, { message: 'And yesterday?' }) },
  responses: { 200: jsonResponse(Envelope(AiConversation), 'The conversation with every message') },
});

export const list = defineRoute('bearer', {
  method: 'get',
  path: '/ai/conversations',
  operationId: 'listConversations',
  description: 'Your assistant conversations.',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Your conversations, most recently active first (paged; without messages)',
  request: { query: ListAiConversationsQuery },
  responses: { 200: jsonResponse(Envelope(AiConversationList, PageMeta), 'Conversations and their count; meta has the page') },
});

export const getOne = defineRoute('bearer', {
  method: 'get',
  path: '/ai/conversations/{id}',
  operationId: 'getConversation',
  description: 'One of your conversations and its messages.',
  tags,
  summary: 'One of your conversations with all its messages (another user’s: 404)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(AiConversation), 'Conversation') },
});

export const patch = defineRoute('bearer', {
  method: 'patch',
  path: '/ai/conversations/{id}',
  operationId: 'updateConversation',
  description: 'Renames or archives one of your conversations.',
  tags,
  summary: 'Rename a conversation, archive it (`is_active` false) or bring it back',
  request: { params: IdParam, body: jsonBody(UpdateAiConversationInput, { title: 'November sales', is_active: false }) },
  responses: { 200: jsonResponse(Envelope(AiConversation), 'Conversation') },
});

export const suggestions = defineRoute('bearer', {
  method: 'get',
  path: '/ai/suggestions',
  operationId: 'getAiSuggestions',
  description: 'What to offer a user starting a conversation.',
  errors: ['NOT_FOUND'],
  tags,
  summary: "Prompts to offer (English and Swahili), how questions are answered and this month's AI credits",
  responses: { 200: jsonResponse(Envelope(AiSuggestions), 'Suggestions and credits') },
});

export const usage = defineRoute('bearer', {
  method: 'get',
  path: '/ai/usage',
  operationId: 'getAiUsage',
  description: "This month's assistant usage and credits.",
  errors: ['NOT_FOUND'],
  tags,
  summary: "This month's AI usage: the organisation's gateway tokens and credits, your conversation count",
  responses: { 200: jsonResponse(Envelope(AiUsage), 'Usage') },
});

export const agentUsage = defineRoute('bearer', {
  method: 'post',
  path: '/ai/usage/agent',
  operationId: 'recordAgentUsage',
  description: "The companion agent's report of a question it answered, counted in the organisation's AI usage.",
  errors: ['NOT_FOUND', 'PLAN_LIMIT'],
  tags,
  summary:
    "Record a companion-agent question in the organisation's AI usage: `questions: 1` takes a credit (402 `PLAN_LIMIT` when none is left, nothing recorded), `tokens_used` adds its model tokens",
  request: { body: jsonBody(AgentUsageInput, { questions: 1, tokens_used: 850 }) },
  responses: { 200: jsonResponse(Envelope(AiUsage), 'Usage after recording') },
});

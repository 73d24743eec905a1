import {
  AgentAction,
  AgentActionClaim,
  AgentActionInput,
  AgentConversation,
  AgentOutcomeInput,
  AgentTurn,
  Envelope,
  IdParam,
} from '@duka/shared';
import { defineRoute, jsonBody, jsonResponse } from '../../lib/route.js';

const tags = ['AI assistant: companion agent'];
const FOR_AGENT = "Called by the companion agent with its user's own token;";

export const startConversation = defineRoute('bearer', {
  method: 'post',
  path: '/ai/agent/conversations',
  operationId: 'startAgentConversation',
  description: `${FOR_AGENT} starts a conversation of yours with no turns yet, forgotten an hour after its last turn.`,
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Start a companion-agent conversation',
  responses: { 200: jsonResponse(Envelope(AgentConversation), 'The new conversation') },
});

export const getConversation = defineRoute('bearer', {
  method: 'get',
  path: '/ai/agent/conversations/{id}',
  operationId: 'getAgentConversation',
  description: `${FOR_AGENT} one of your conversations with its last turns. Unknown, expired or another user's: 404.`,
  tags,
  summary: 'A companion-agent conversation and its last turns',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(AgentConversation), 'The conversation') },
});

export const addTurn = defineRoute('bearer', {
  method: 'post',
  path: '/ai/agent/conversations/{id}/turns',
  operationId: 'addAgentTurn',
  description: `${FOR_AGENT} adds a question and its answer to one of your conversations, keeps the last 6 and moves its expiry on. Unknown, expired or another user's: 404.`,
  tags,
  summary: 'Add a turn to a companion-agent conversation',
  request: {
    params: IdParam,
    body: jsonBody(AgentTurn, {
      question: 'How much did I sell today?',
      answer: 'Sales today (2026-11-26): 4 sales, TZS 81,100 in total.',
      language: 'en',
      topic: 'sales_today',
    }),
  },
  responses: { 200: jsonResponse(Envelope(AgentConversation), 'The conversation with the turn added') },
});

export const proposeAction = defineRoute('bearer', {
  method: 'post',
  path: '/ai/agent/actions',
  operationId: 'proposeAgentAction',
  errors: ['NOT_FOUND'],
  description: `${FOR_AGENT} keeps a change the agent proposed to you until you confirm it or it expires. Nothing is changed here. \`conversation_id\` that is not one of your live conversations: 404.`,
  tags,
  summary: 'Keep a change proposed by the companion agent for your confirmation',
  request: {
    body: jsonBody(AgentActionInput, {
      tool: 'updateProduct',
      arguments: { id: '0193a0f0-0000-7000-8000-000000000001', selling_price: 3200 },
      summary: 'Change Sugar 1 kg: selling price to TZS 3,200',
      language: 'en',
      ttl_seconds: 600,
    }),
  },
  responses: { 200: jsonResponse(Envelope(AgentAction), 'The pending action') },
});

export const claimAction = defineRoute('bearer', {
  method: 'post',
  path: '/ai/agent/actions/{id}/claim',
  operationId: 'claimAgentAction',
  description: `${FOR_AGENT} claims one of your pending actions for the confirmation that carries it out. Of any number of claims, one is \`granted\` (it then records the outcome); the others answer \`executing\` until the outcome is recorded, then \`done\` with it. A claim whose outcome is not recorded within 60 seconds may be granted again. Unknown or another user's: 404; not confirmed in time: 410 \`EXPIRED\`.`,
  errors: ['EXPIRED'],
  tags,
  summary: 'Claim a pending action to carry it out, or read its outcome',
  request: { params: IdParam },
  responses: { 200: jsonResponse(Envelope(AgentActionClaim), 'The claim: granted, executing or done') },
});

export const recordOutcome = defineRoute('bearer', {
  method: 'put',
  path: '/ai/agent/actions/{id}/outcome',
  operationId: 'recordAgentActionOutcome',
  description: `${FOR_AGENT} records what carrying out a claimed action answered. The first outcome stands: a later one answers the action with it. A claim that no longer holds the action (another took it over): 409 \`INVALID_STATE\`.`,
  errors: ['INVALID_STATE'],
  tags,
  summary: 'Record the outcome of a claimed action',
  request: {
    params: IdParam,
    body: jsonBody(AgentOutcomeInput, {
      claim_id: '0193a0f0-0000-7000-8000-000000000002',
      status: 200,
      message: 'product updated',
      ms: 41,
    }),
  },
  responses: { 200: jsonResponse(Envelope(AgentAction), 'The action, done, with its outcome') },
});

/**
 * One question, in two steps so a stream can start only once nothing can be refused any more:
 * `prepare` finds the conversation and checks the organisation's AI credits (402 when spent),
 * `answer` runs the model's loop or the planner and records the question in the AI usage. `claimAction`
 * and `confirmAction` carry out a pending action the same user was offered, once. Conversations and
 * pending actions are kept by the API, so any agent instance can answer any of these.
 */
import { languageOf } from '@duka/shared';
import type { Logger } from 'pino';
import type { DukaApi } from '../api-client.js';
import type { Caller } from '../identity.js';
import type { ChatModel } from '../model.js';
import { runPlanner } from '../planner/planner.js';
import type { AskAnswer, AskInput } from '../schemas.js';
import { ActionBusyError, type Claim, viewOf } from '../tools/actions.js';
import type { ToolRunner } from '../tools/runner.js';
import type { Conversation, Conversations } from './conversations.js';
import { runModel } from './model-loop.js';
import { type Emit, TOOL_BUDGET, type Turn } from './types.js';

export class AskError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 410 | 502 | 503,
    message: string,
  ) {
    super(message);
  }
}

export interface AskDeps {
  api: DukaApi;
  runner: ToolRunner;
  model: ChatModel | null;
  conversations: Conversations;
  log: Logger;
}

export type Prepared = Awaited<ReturnType<typeof prepare>>;

export async function prepare(deps: AskDeps, caller: Caller, input: AskInput & { question: string }) {
  const known = input.conversation_id ? await deps.conversations.get(caller, input.conversation_id) : null;
  if (input.conversation_id && !known) throw new AskError(404, 'no conversation with this id: it is unknown, expired or not yours');
  // Out of AI credits: refused before any tool runs, as the API's own assistant refuses.
  const credits = await deps.api.request(caller.token, 'get', '/accounts/ai-credits');
  if (credits.status === 200 && Number(credits.body?.data?.remaining) <= 0) {
    throw new AskError(402, `no AI credits are left this month (${credits.body.data.used} of ${credits.body.data.allocated} used)`);
  }
  const conversation = known ?? (await deps.conversations.start(caller));
  return { caller, question: input.question, conversation };
}

/**
 * A turn kept for follow-ups. Kept after the answer is made (a confirmed change may already be
 * done), so a failure to keep it is logged, never the user's error: a follow-up then has less context.
 */
async function remember(deps: AskDeps, caller: Caller, conversation: Conversation, turn: Turn) {
  try {
    await deps.conversations.add(caller, conversation, turn);
  } catch (err) {
    deps.log.warn({ user: caller.userId, org: caller.orgId, err: String(err) }, 'conversation turn not kept');
  }
}

/**
 * An answered question in the organisation's AI usage records (a credit and its tokens). Recorded
 * after the answer so a failed one costs nothing; a question that lost the race for the last
 * credit (402 here) or an API without the route is logged, never an error for the user.
 */
async function recordUsage(deps: AskDeps, caller: Caller, tokens: number) {
  const res = await deps.api
    .request(caller.token, 'post', '/ai/usage/agent', { body: { questions: 1, tokens_used: tokens } })
    .catch(() => null);
  if (res?.status !== 200) deps.log.warn({ user: caller.userId, org: caller.orgId, status: res?.status ?? null }, 'AI usage not recorded');
}

export async function answer(deps: AskDeps, p: Prepared, emit: Emit): Promise<AskAnswer> {
  const language = languageOf(p.question);
  const input = {
    caller: p.caller,
    question: p.question,
    language,
    history: p.conversation.turns,
    conversationId: p.conversation.id,
    runner: deps.runner,
    emit,
  };
  const result = deps.model ? await runModel(deps.model, input) : await runPlanner(input);
  await recordUsage(deps, p.caller, result.tokens);
  await remember(deps, p.caller, p.conversation, {
    question: p.question,
    answer: result.answer,
    language,
    ...(result.topic ? { topic: result.topic } : {}),
    ...(result.subject ? { subject: result.subject } : {}),
  });
  emit({ event: 'answer', data: { text: result.answer } });
  return {
    answer: result.answer,
    language,
    tool_calls: result.toolCalls,
    pending_action: result.pending ? viewOf(result.pending) : null,
    budget: { used: result.used, limit: TOOL_BUDGET, exhausted: result.exhausted },
    conversation_id: p.conversation.id,
    mode: deps.model ? 'model' : 'planner',
  };
}

/**
 * The caller's own pending action, claimed for this confirmation (see tools/actions.ts), or the
 * refusal: 404 unknown or someone else's, 410 expired. Called before a stream starts.
 */
export async function claimAction(deps: AskDeps, caller: Caller, id: string): Promise<Claim> {
  const taken = await deps.runner.actions.take(caller, id);
  if ('problem' in taken) {
    if (taken.problem === 'expired') throw new AskError(410, 'this change was not confirmed in time; ask again');
    throw new AskError(404, 'no pending action with this id: it is unknown or not yours');
  }
  return taken;
}

export async function confirmAction(deps: AskDeps, caller: Caller, input: AskInput, claim: Claim, emit: Emit): Promise<AskAnswer> {
  const action = claim.action;
  const conversationId = input.conversation_id ?? action.conversationId;
  const conversation =
    (conversationId && (await deps.conversations.get(caller, conversationId))) || (await deps.conversations.start(caller));
  let confirmed;
  try {
    confirmed = await deps.runner.actions.confirm(caller, claim, () => {
      emit({ event: 'tool_call_started', data: { name: action.tool, arguments: action.args } });
      return deps.runner.execute(caller, action);
    });
  } catch (err) {
    if (err instanceof ActionBusyError) throw new AskError(409, 'this change is still being carried out; ask again in a moment');
    throw err;
  }
  const { outcome: done, first } = confirmed;
  const language = action.language;
  const status = done.ok ? 'ok' : done.status === 403 || done.status === 401 ? 'forbidden' : 'failed';
  const record = { name: action.tool, arguments: action.args, status, ms: done.ms } as const;
  if (first) emit({ event: 'tool_call_finished', data: record });
  const text = done.ok
    ? language === 'sw'
      ? `Imefanyika: ${action.summary}.`
      : `Done: ${action.summary}.`
    : language === 'sw'
      ? `Haikufanyika: ${action.summary}. ${done.message}`
      : `Not done: ${action.summary}. ${done.message}`;
  await remember(deps, caller, conversation, { question: `confirm ${action.id}`, answer: text, language });
  emit({ event: 'answer', data: { text } });
  return {
    answer: text,
    language,
    tool_calls: [record],
    pending_action: null,
    budget: { used: first ? 1 : 0, limit: TOOL_BUDGET, exhausted: false },
    conversation_id: conversation.id,
    mode: 'confirmation',
  };
}

/**
 * The assistant through the organisation's AI gateway: an OpenAI-compatible
 * `POST {AI_GATEWAY_URL}/chat/completions` with the conversation's history and the shop tools as
 * function tools. Tool calls are run here, against the caller's own scope, and their results sent
 * back, for at most MAX_ROUNDS requests. The key is only ever put in the Authorization header:
 * never logged, never in an error message.
 */
import type { AiRole } from '@duka/shared';
import { z } from 'zod';
import type { AuthedContext } from '../../../lib/context.js';
import { ServiceError } from '../../../lib/errors.js';
import { FUNCTION_TOOLS, isToolName, TOOLS } from './tools.js';

export const MAX_ROUNDS = 4;
export const GATEWAY_TIMEOUT_MS = 30_000;
/** A gateway that failed is asked again no sooner than this (the answer's Retry-After). */
export const RETRY_AFTER_S = 30;
/** Earlier messages sent with each question (the newest ones). */
export const HISTORY_MESSAGES = 20;

/** The gateway failed or could not be reached: 503 SERVICE_UNAVAILABLE, with the upstream status when there was one, and when to ask again. */
export class AiGatewayError extends ServiceError {
  constructor(
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super('SERVICE_UNAVAILABLE', message, {
      headers: { 'Retry-After': String(RETRY_AFTER_S) },
      meta: { reason: 'AI_GATEWAY_ERROR', ...(upstreamStatus ? { upstream_status: upstreamStatus } : {}) },
    });
  }
}

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };
type ToolCall = z.infer<typeof ToolCallSchema>;

const ToolCallSchema = z.object({
  id: z.string(),
  type: z.string().optional(),
  function: z.object({ name: z.string(), arguments: z.string().optional() }),
});
const CompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), tool_calls: z.array(ToolCallSchema).nullable().optional() }),
      }),
    )
    .min(1),
  usage: z.object({ total_tokens: z.number().int().nonnegative() }).partial().optional(),
});

const systemPrompt = (shop: string) =>
  [
    `You are Duka, the assistant of the shop "${shop}" in Tanzania.`,
    'Answer briefly in the language of the question (English or Swahili), in plain text.',
    'For figures about the shop use the tools, and quote them exactly; money is in TZS with thousands separators (TZS 12,500).',
  ].join(' ');

export interface GatewayAnswer {
  content: string;
  tokens: number;
}

async function complete(ctx: AuthedContext, key: string, body: unknown): Promise<z.infer<typeof CompletionSchema>> {
  let res: Response;
  try {
    res = await fetch(`${ctx.config.AI_GATEWAY_URL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    ctx.log.warn(
      { req_id: ctx.requestId, timed_out: timedOut, reason: err instanceof Error ? err.name : 'unknown' },
      'AI gateway unreachable',
    );
    throw new AiGatewayError(
      timedOut ? `the AI service did not answer within ${GATEWAY_TIMEOUT_MS / 1000} s` : 'the AI service could not be reached',
    );
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    ctx.log.warn({ req_id: ctx.requestId, upstream_status: res.status }, 'AI gateway refused');
    const hint = res.status === 401 || res.status === 403 ? ' (check the AI gateway key in the organisation settings)' : '';
    throw new AiGatewayError(`the AI service answered HTTP ${res.status}${hint}`, res.status);
  }
  const parsed = CompletionSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new AiGatewayError('the AI service sent an answer that could not be read', res.status);
  return parsed.data;
}

/** The answer to the last message of `history` (oldest first, the new user message last). */
export async function answerWithGateway(
  ctx: AuthedContext,
  key: string,
  shop: string,
  history: Array<{ role: AiRole; content: string }>,
): Promise<GatewayAnswer> {
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt(shop) }, ...history.slice(-HISTORY_MESSAGES)];
  let tokens = 0;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const last = round === MAX_ROUNDS;
    const out = await complete(ctx, key, {
      model: ctx.config.AI_MODEL,
      messages,
      tools: FUNCTION_TOOLS,
      // The last round must answer in words: no more tool calls.
      tool_choice: last ? 'none' : 'auto',
    });
    tokens += out.usage?.total_tokens ?? 0;
    const reply = out.choices[0]!.message;
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0 || last) {
      const content = reply.content?.trim();
      if (!content) throw new AiGatewayError('the AI service sent an empty answer');
      return { content, tokens };
    }
    messages.push({ role: 'assistant', content: reply.content ?? null, tool_calls: calls });
    for (const call of calls) {
      const name = call.function.name;
      const result = isToolName(name) ? await TOOLS[name].run(ctx) : { error: `unknown tool ${name}` };
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  throw new AiGatewayError('the AI service did not finish its answer');
}

/**
 * The language model, behind one small interface: any OpenAI-compatible
 * `POST {AGENT_LLM_URL}/chat/completions` with function tools. With no model configured there is
 * no ChatModel at all and the built-in planner answers, so the agent needs nothing outside.
 */
import { z } from 'zod';
import type { AgentConfig } from './config.js';

export interface ToolCallRequest {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCallRequest[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface FunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface Completion {
  content: string | null;
  toolCalls: ToolCallRequest[];
  tokens: number;
}

export interface ChatModel {
  complete(req: { messages: ChatMessage[]; tools?: FunctionTool[]; toolChoice?: 'auto' | 'none' }): Promise<Completion>;
}

export class ModelError extends Error {}

/** What we read of an answer; anything else in it is ignored. */
const CompletionBody = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string(),
                type: z.literal('function').default('function'),
                function: z.object({ name: z.string(), arguments: z.string().default('{}') }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
  usage: z.object({ total_tokens: z.number().int().nonnegative() }).partial().nullish(),
});

export function openAiModel(config: AgentConfig): ChatModel | null {
  if (!config.AGENT_LLM_URL) return null;
  const url = `${config.AGENT_LLM_URL}/chat/completions`;
  return {
    async complete({ messages, tools, toolChoice }) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (config.AGENT_LLM_KEY) headers.authorization = `Bearer ${config.AGENT_LLM_KEY}`;
      const body = { model: config.AGENT_MODEL, messages, ...(tools?.length ? { tools, tool_choice: toolChoice ?? 'auto' } : {}) };
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(config.AGENT_LLM_TIMEOUT_MS),
        });
      } catch (err) {
        throw new ModelError(`the model could not be reached (${(err as Error).name})`);
      }
      if (!res.ok) throw new ModelError(`the model answered ${res.status}`);
      const parsed = CompletionBody.safeParse(await res.json().catch(() => null));
      if (!parsed.success) throw new ModelError('the model gave an answer that is not a chat completion');
      const message = parsed.data.choices[0]!.message;
      return {
        content: message.content ?? null,
        toolCalls: (message.tool_calls ?? []) as ToolCallRequest[],
        tokens: parsed.data.usage?.total_tokens ?? 0,
      };
    },
  };
}

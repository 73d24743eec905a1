/** The agent's wire shapes: what POST /ask takes and answers, and its server-sent events. */
import { z } from 'zod';

export const Language = z.enum(['en', 'sw']);
export type Language = z.infer<typeof Language>;

export const AskInput = z
  .object({
    question: z.string().trim().min(1).max(2000).optional(),
    /** Continue a conversation this user started: the question may refer to the last answer. */
    conversation_id: z.uuid().optional(),
    /** The id of a pending action this user was offered: carries it out (once). */
    confirm: z.uuid().optional(),
  })
  .strict()
  .refine((v) => v.question !== undefined || v.confirm !== undefined, {
    message: 'send a question, or confirm a pending action',
    path: ['question'],
  });
export type AskInput = z.infer<typeof AskInput>;

export const ToolCallStatus = z.enum(['ok', 'failed', 'forbidden', 'proposed', 'rejected', 'skipped']);
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

export const ToolCallRecord = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  status: ToolCallStatus,
  ms: z.int(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

export const PendingActionView = z.object({
  id: z.uuid(),
  summary: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  expires_at: z.string(),
});
export type PendingActionView = z.infer<typeof PendingActionView>;

export const Budget = z.object({ used: z.int(), limit: z.int(), exhausted: z.boolean() });
export type Budget = z.infer<typeof Budget>;

export const AskAnswer = z.object({
  answer: z.string(),
  language: Language,
  tool_calls: z.array(ToolCallRecord),
  pending_action: PendingActionView.nullable(),
  budget: Budget,
  conversation_id: z.uuid(),
  mode: z.enum(['model', 'planner', 'confirmation']),
});
export type AskAnswer = z.infer<typeof AskAnswer>;

/** Server-sent events of POST /ask with `Accept: text/event-stream`, in this order. */
export type AskEvent =
  | { event: 'tool_call_started'; data: { name: string; arguments: Record<string, unknown> } }
  | { event: 'tool_call_finished'; data: ToolCallRecord }
  | { event: 'answer'; data: { text: string } }
  | { event: 'done'; data: AskAnswer }
  | { event: 'error'; data: { status: number; message: string } };

/** The error body of the agent's own refusals (the API's envelope shape, so clients read one kind). */
export const errorBody = (message: string, errors: Array<{ field: string; message: string }> = []) => ({
  success: false,
  message,
  data: null,
  errors,
  meta: null,
});

import type { AgentTurn } from '@duka/shared';
import type { Caller } from '../identity.js';
import type { AskEvent, Language, ToolCallRecord } from '../schemas.js';
import type { PendingAction } from '../tools/actions.js';
import type { ToolRunner } from '../tools/runner.js';

/** At most this many tool calls per question (the contract), counted by the loop, not asked of the model. */
export const TOOL_BUDGET = 8;

export type Emit = (e: AskEvent) => void;

/** One earlier turn of the conversation, for follow-up questions (with the planner's topic and subject, so "and yesterday?" can reuse them). */
export type Turn = AgentTurn;

export interface LoopInput {
  caller: Caller;
  question: string;
  language: Language;
  history: Turn[];
  /** The conversation being answered: a change proposed now belongs to it. */
  conversationId?: string;
  runner: ToolRunner;
  emit: Emit;
}

export interface LoopResult {
  answer: string;
  toolCalls: ToolCallRecord[];
  pending: PendingAction | null;
  used: number;
  exhausted: boolean;
  tokens: number;
  topic?: string;
  subject?: string;
}

/**
 * Counts tool calls against the budget and tells the stream. A call past the budget is not run:
 * `tryCall` answers null and the loop stops asking for more.
 */
export class Budgeted {
  used = 0;
  exhausted = false;
  readonly records: ToolCallRecord[] = [];
  pending: PendingAction | null = null;

  constructor(private readonly input: LoopInput) {}

  async tryCall(name: string, args: unknown) {
    if (this.used >= TOOL_BUDGET) {
      this.exhausted = true;
      return null;
    }
    this.used++;
    const shown = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    this.input.emit({ event: 'tool_call_started', data: { name, arguments: shown } });
    const out = await this.input.runner.call(this.input.caller, name, args, this.input.language, this.input.conversationId);
    if (out.pending) {
      // One change per question: a second proposal is refused, and the first stays the one to confirm.
      if (this.pending) {
        out.record.status = 'rejected';
        out.forModel = { status: 'rejected', error: 'one change per question: a change is already waiting for the user to confirm it' };
        out.pending = undefined;
      } else this.pending = out.pending;
    }
    this.records.push(out.record);
    this.input.emit({ event: 'tool_call_finished', data: out.record });
    return out;
  }
}

/** What an answer of the built-in planner has to work with: the question's language and dates, and the tools through the budget. */
import type { Language } from '../schemas.js';
import type { ToolOutcome } from '../tools/runner.js';

export interface AnswerContext {
  lang: Language;
  today: string;
  /** The organisation's time zone: the dates of what the API answers as instants. */
  timeZone: string;
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome | null>;
}

/** Thrown when a tool did not answer with data: the planner words it (refused, failed, budget). */
export class NoData extends Error {
  constructor(readonly outcome: ToolOutcome | null) {
    super('no data');
  }
}

/** The data a tool answered, or NoData (refused, failed, or the budget is spent). */
export async function data(ctx: AnswerContext, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const out = await ctx.call(name, args);
  if (!out || out.record.status !== 'ok') throw new NoData(out);
  return out.data;
}

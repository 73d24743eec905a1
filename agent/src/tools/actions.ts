/**
 * Pending actions: a write the model (or the planner) proposed, waiting for its user's
 * confirmation. They are kept by the API (memory-api.ts), so a confirmation reaching any agent
 * instance finds its action. An action belongs to the user it was offered to and expires.
 * Confirming runs it once, across instances: a confirmation first claims the action from the API,
 * which grants exactly one claim; that confirmation carries the write out and records the outcome,
 * and every other one (repeated, concurrent, on another instance) waits for that outcome and answers
 * it. When the API gave no answer at all, no outcome is recorded: after the claim's lease (a
 * minute) a confirmation may claim it again, and the Idempotency-Key made from the action's id lets
 * the API replay rather than repeat a write it did get.
 */
import { AgentAction, AgentActionClaim, type AgentActionOutcome } from '@duka/shared';
import type { Logger } from 'pino';
import type { DukaApi } from '../api-client.js';
import type { Caller } from '../identity.js';
import { memoryCall, MemoryUnavailableError } from '../memory-api.js';
import type { Language, PendingActionView } from '../schemas.js';

export interface ActionOutcome {
  status: number;
  ok: boolean;
  message: string;
  ms: number;
}

export interface PendingAction {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  summary: string;
  language: Language;
  /** The conversation it was proposed in; its confirmation continues it. */
  conversationId?: string;
  expiresAt: number;
}

export type Proposal = Pick<PendingAction, 'tool' | 'args' | 'summary' | 'language' | 'conversationId'>;

/** A confirmation's claim: it carries the action out (`granted`), another one is (`executing`), or it is `done`. */
export type Claim =
  | { kind: 'granted'; action: PendingAction; claimId: string }
  | { kind: 'executing'; action: PendingAction }
  | { kind: 'done'; action: PendingAction; outcome: ActionOutcome };
export type Taken = Claim | { problem: 'not_found' | 'expired' };

/** Another confirmation has been carrying the action out for longer than a confirmation waits. */
export class ActionBusyError extends Error {}

const isOk = (status: number) => status >= 200 && status < 300;
const outcomeOf = (o: AgentActionOutcome): ActionOutcome => ({ ...o, ok: isOk(o.status) });

function fromWire(a: AgentAction): PendingAction {
  return {
    id: a.id,
    tool: a.tool,
    args: a.arguments,
    summary: a.summary,
    language: a.language,
    ...(a.conversation_id ? { conversationId: a.conversation_id } : {}),
    expiresAt: Date.parse(a.expires_at),
  };
}

export interface ActionTiming {
  /** How often a waiting confirmation asks whether the outcome is there. */
  pollMs: number;
  /** How long it waits at most; beyond the API's claim lease (60 s), so it can take over from a dead executor. */
  waitMs: number;
}

export class PendingActions {
  constructor(
    private readonly api: DukaApi,
    private readonly ttlSeconds: number,
    private readonly log: Logger,
    private readonly timing: ActionTiming = { pollMs: 150, waitMs: 65_000 },
  ) {}

  async create(caller: Caller, p: Proposal): Promise<PendingAction> {
    const body = {
      tool: p.tool,
      arguments: p.args,
      summary: p.summary,
      language: p.language,
      ttl_seconds: this.ttlSeconds,
      ...(p.conversationId ? { conversation_id: p.conversationId } : {}),
    };
    const res = await memoryCall(this.api, caller, 'post', '/ai/agent/actions', AgentAction, body);
    if ('data' in res) return fromWire(res.data);
    throw new MemoryUnavailableError(res.refused);
  }

  /** Claim the user's own action; another user's is as unknown as one that never existed. */
  async take(caller: Caller, id: string): Promise<Taken> {
    const res = await memoryCall(this.api, caller, 'post', `/ai/agent/actions/${encodeURIComponent(id)}/claim`, AgentActionClaim);
    if (!('data' in res)) {
      if (res.refused === 409) throw new MemoryUnavailableError(res.refused);
      return { problem: res.refused === 410 ? 'expired' : 'not_found' };
    }
    const { claim, claim_id, action } = res.data;
    const pending = fromWire(action);
    if (claim === 'granted') return { kind: 'granted', action: pending, claimId: claim_id! };
    if (claim === 'done' && action.outcome) return { kind: 'done', action: pending, outcome: outcomeOf(action.outcome) };
    return { kind: 'executing', action: pending };
  }

  /**
   * Run `execute` only on a granted claim and record its outcome; otherwise wait for the outcome
   * the granted one records (or for its lease to run out, and then run it here).
   */
  async confirm(caller: Caller, claim: Claim, execute: () => Promise<ActionOutcome>): Promise<{ outcome: ActionOutcome; first: boolean }> {
    const until = Date.now() + this.timing.waitMs;
    for (;;) {
      if (claim.kind === 'done') return { outcome: claim.outcome, first: false };
      if (claim.kind === 'granted') return { outcome: await this.record(caller, claim, await execute()), first: true };
      if (Date.now() >= until) throw new ActionBusyError();
      await new Promise((resolve) => setTimeout(resolve, this.timing.pollMs));
      const next = await this.take(caller, claim.action.id);
      if ('problem' in next) throw new MemoryUnavailableError(404);
      claim = next;
    }
  }

  /** The outcome as recorded: the first recorded stands. Not recorded (the API failed now): this one, and the lease lets a retry replay it. */
  private async record(caller: Caller, claim: Extract<Claim, { kind: 'granted' }>, outcome: ActionOutcome): Promise<ActionOutcome> {
    const body = { claim_id: claim.claimId, status: outcome.status, message: outcome.message.slice(0, 1000), ms: outcome.ms };
    try {
      const res = await memoryCall(
        this.api,
        caller,
        'put',
        `/ai/agent/actions/${encodeURIComponent(claim.action.id)}/outcome`,
        AgentAction,
        body,
      );
      if ('data' in res && res.data.outcome) return outcomeOf(res.data.outcome);
      this.log.warn(
        { user: caller.userId, org: caller.orgId, action: claim.action.id, status: 'refused' in res ? res.refused : 200 },
        'action outcome not recorded',
      );
    } catch (err) {
      this.log.warn({ user: caller.userId, org: caller.orgId, action: claim.action.id, err: String(err) }, 'action outcome not recorded');
    }
    return outcome;
  }
}

export const viewOf = (a: PendingAction): PendingActionView => ({
  id: a.id,
  summary: a.summary,
  tool: a.tool,
  arguments: a.args,
  expires_at: new Date(a.expiresAt).toISOString(),
});

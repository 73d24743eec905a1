/**
 * Pending actions: a write the model (or the planner) proposed, waiting for its user's
 * confirmation. An action belongs to the user it was offered to and expires. Confirming runs it
 * once: the first confirmation stores the outcome's promise before anything is awaited, so a
 * repeated or concurrent confirmation gets that same outcome and never a second write.
 */
import { randomUUID } from 'node:crypto';
import type { Language, PendingActionView } from '../schemas.js';

export interface ActionOutcome {
  status: number;
  ok: boolean;
  data: unknown;
  message: string;
  ms: number;
}

export interface PendingAction {
  id: string;
  userId: string;
  orgId: string | null;
  tool: string;
  args: Record<string, unknown>;
  summary: string;
  language: Language;
  /** The conversation it was proposed in; its confirmation continues it. */
  conversationId?: string;
  expiresAt: number;
  outcome: Promise<ActionOutcome> | null;
}

export type Taken = { action: PendingAction } | { problem: 'not_found' | 'expired' };

const MAX_ACTIONS = 10_000;
/** How long a carried-out action's outcome is kept for repeated confirmations. */
const KEEP_DONE_MS = 60 * 60 * 1000;

export class PendingActions {
  private actions = new Map<string, PendingAction>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  create(a: Omit<PendingAction, 'id' | 'expiresAt' | 'outcome'>): PendingAction {
    this.sweep();
    if (this.actions.size >= MAX_ACTIONS) this.actions.delete(this.actions.keys().next().value!);
    const action: PendingAction = { ...a, id: randomUUID(), expiresAt: this.now() + this.ttlMs, outcome: null };
    this.actions.set(action.id, action);
    return action;
  }

  /** The user's own action; another user's is as unknown as one that never existed. */
  take(userId: string, id: string): Taken {
    const action = this.actions.get(id);
    if (!action || action.userId !== userId) return { problem: 'not_found' };
    if (!action.outcome && action.expiresAt <= this.now()) return { problem: 'expired' };
    return { action };
  }

  /** Run `execute` for the first confirmation only; every confirmation answers its outcome. */
  confirm(action: PendingAction, execute: () => Promise<ActionOutcome>): { outcome: Promise<ActionOutcome>; first: boolean } {
    if (action.outcome) return { outcome: action.outcome, first: false };
    const expiresAt = action.expiresAt;
    const outcome = execute();
    action.outcome = outcome;
    action.expiresAt = this.now() + KEEP_DONE_MS;
    // No answer at all (expired token, API unreachable): the action may be confirmed again; the
    // Idempotency-Key made from its id lets the API replay rather than repeat a write it did get.
    outcome.catch(() => {
      if (action.outcome === outcome) Object.assign(action, { outcome: null, expiresAt });
    });
    return { outcome, first: true };
  }

  private sweep() {
    const now = this.now();
    for (const [id, a] of this.actions) if (a.expiresAt <= now) this.actions.delete(id);
  }
}

export const viewOf = (a: PendingAction): PendingActionView => ({
  id: a.id,
  summary: a.summary,
  tool: a.tool,
  arguments: a.args,
  expires_at: new Date(a.expiresAt).toISOString(),
});

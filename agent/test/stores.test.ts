/** The agent's in-memory stores: pending actions (owned, expiring, carried out once) and conversations (owned, capped, expiring). */
import { describe, expect, it } from 'vitest';
import { Conversations } from '../src/ask/conversations.js';
import { type ActionOutcome, PendingActions } from '../src/tools/actions.js';

const done: ActionOutcome = { status: 200, ok: true, data: null, message: 'ok', ms: 1 };
const proposal = { userId: 'u1', orgId: 'o1', tool: 'createExpense', args: { title: 'Umeme' }, summary: 'Record an expense', language: 'en' as const };

describe('pending actions', () => {
  it('belong to their user and expire unconfirmed', () => {
    let now = 0;
    const actions = new PendingActions(600_000, () => now);
    const a = actions.create(proposal);
    expect(actions.take('u2', a.id)).toEqual({ problem: 'not_found' });
    expect(actions.take('u1', a.id)).toEqual({ action: a });
    now = 600_000;
    expect(actions.take('u1', a.id)).toEqual({ problem: 'expired' });
  });

  it('run once however often they are confirmed, and keep the outcome after the proposal would have expired', async () => {
    let now = 0;
    const actions = new PendingActions(600_000, () => now);
    const a = actions.create(proposal);
    let runs = 0;
    const execute = async () => (runs++, done);
    const first = actions.confirm(a, execute);
    const second = actions.confirm(a, execute);
    expect([first.first, second.first]).toEqual([true, false]);
    expect(await second.outcome).toBe(await first.outcome);
    now = 30 * 60_000;
    expect('action' in actions.take('u1', a.id)).toBe(true);
    expect(actions.confirm(a, execute).first).toBe(false);
    expect(runs).toBe(1);
  });

  it('may be confirmed again when the API gave no answer at all', async () => {
    const actions = new PendingActions(600_000);
    const a = actions.create(proposal);
    const failed = actions.confirm(a, async () => Promise.reject(new Error('unreachable')));
    await expect(failed.outcome).rejects.toThrow('unreachable');
    await Promise.resolve();
    const retried = actions.confirm(a, async () => done);
    expect(retried.first).toBe(true);
    expect(await retried.outcome).toBe(done);
  });
});

describe('conversations', () => {
  it('are their user’s, keep the last 6 turns and are forgotten after an idle hour', () => {
    let now = 0;
    const conversations = new Conversations(() => now);
    const c = conversations.start('u1');
    for (let i = 0; i < 8; i++) conversations.add(c, { question: `q${i}`, answer: `a${i}`, language: 'en' });
    expect(conversations.get('u2', c.id)).toBeNull();
    expect(conversations.get('u1', c.id)!.turns.map((t) => t.question)).toEqual(['q2', 'q3', 'q4', 'q5', 'q6', 'q7']);
    now = 60 * 60_000;
    expect(conversations.get('u1', c.id)).toBeNull();
  });
});

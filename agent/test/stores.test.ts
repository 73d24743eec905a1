/**
 * The agent's stores, kept by the API: pending actions (owned, expiring, carried out once, even
 * when two agent instances confirm at once) and conversations (owned, the last 6 turns, expiring).
 * Each store object stands for one agent instance; the API's clock is moved by the test.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApi } from '../src/api-client.js';
import { Conversations } from '../src/ask/conversations.js';
import { type Caller, Identities } from '../src/identity.js';
import { type ActionOutcome, ActionBusyError, type Claim, PendingActions, type Taken } from '../src/tools/actions.js';
import { type Api, createStaff, registerOwner, startApi } from './harness.js';

const done: ActionOutcome = { status: 200, ok: true, message: 'ok', ms: 1 };
const proposal = { tool: 'createExpense', args: { title: 'Umeme' }, summary: 'Record an expense', language: 'en' as const };
const timing = { pollMs: 20, waitMs: 10_000 };
const claimed = (t: Taken): Claim => {
  if ('problem' in t) throw new Error(`not claimed: ${t.problem}`);
  return t;
};

describe('the agent stores, kept by the API', () => {
  let api: Api;
  let owner: Caller;
  let cashier: Caller;
  const log = pino({ level: 'silent' });
  const instance = () => new PendingActions(httpApi(api.url), 600, log, timing);

  beforeAll(async () => {
    api = await startApi({ config: { ACCESS_TOKEN_TTL: 86_400 } });
    const o = await registerOwner(api.t);
    const c = await createStaff(api.t, o);
    const identities = new Identities(httpApi(api.url));
    owner = await identities.resolve(o.token);
    cashier = await identities.resolve(c.token);
  });
  afterAll(() => api.close());

  it('pending actions belong to their user and expire unconfirmed', async () => {
    const actions = instance();
    const a = await actions.create(owner, proposal);
    expect(await actions.take(cashier, a.id)).toEqual({ problem: 'not_found' });
    expect(await actions.take(owner, '00000000-0000-4000-8000-000000000000')).toEqual({ problem: 'not_found' });
    const b = await actions.create(owner, proposal);
    expect(await actions.take(owner, b.id)).toMatchObject({
      kind: 'granted',
      action: { id: b.id, summary: 'Record an expense', args: { title: 'Umeme' } },
    });
    api.t.clock.advance(600_000);
    expect(await actions.take(owner, a.id)).toEqual({ problem: 'expired' });
  });

  it('run once however often they are confirmed, on one instance or two, and keep the outcome after the proposal would have expired', async () => {
    const [one, two] = [instance(), instance()];
    const a = await one.create(owner, proposal);
    const claims = await Promise.all([one.take(owner, a.id), two.take(owner, a.id), two.take(owner, a.id)]);
    expect(claims.map((c) => ('kind' in c ? c.kind : c.problem)).sort()).toEqual(['executing', 'executing', 'granted']);
    let runs = 0;
    const execute = async () => (runs++, await new Promise((r) => setTimeout(r, 100)), done);
    const outcomes = await Promise.all(claims.map((c, i) => (i === 0 ? one : two).confirm(owner, claimed(c), execute)));
    expect(outcomes.map((o) => o.first).sort()).toEqual([false, false, true]);
    for (const o of outcomes) expect(o.outcome).toEqual(done);
    api.t.clock.advance(30 * 60_000);
    const later = claimed(await two.take(owner, a.id));
    expect(later.kind).toBe('done');
    expect((await two.confirm(owner, later, execute)).first).toBe(false);
    expect(runs).toBe(1);
  });

  it('may be confirmed again once the claim of a confirmation that got no answer at all has lapsed', async () => {
    const [one, two] = [instance(), instance()];
    const a = await one.create(owner, proposal);
    const first = claimed(await one.take(owner, a.id));
    await expect(one.confirm(owner, first, async () => Promise.reject(new Error('unreachable')))).rejects.toThrow('unreachable');
    expect(claimed(await two.take(owner, a.id)).kind).toBe('executing');
    api.t.clock.advance(60_000);
    const retried = await two.confirm(owner, claimed(await two.take(owner, a.id)), async () => done);
    expect(retried).toEqual({ outcome: done, first: true });
    expect(claimed(await one.take(owner, a.id))).toMatchObject({ kind: 'done', outcome: done });
  });

  it('give up waiting for another confirmation’s outcome after a while, running nothing', async () => {
    const one = instance();
    const impatient = new PendingActions(httpApi(api.url), 600, log, { pollMs: 20, waitMs: 100 });
    const a = await one.create(owner, proposal);
    expect(claimed(await one.take(owner, a.id)).kind).toBe('granted');
    let runs = 0;
    await expect(impatient.confirm(owner, claimed(await impatient.take(owner, a.id)), async () => (runs++, done))).rejects.toBeInstanceOf(
      ActionBusyError,
    );
    expect(runs).toBe(0);
  });

  it('conversations are their user’s, keep the last 6 turns, continue on another instance and are forgotten after an idle hour', async () => {
    const [one, two] = [new Conversations(httpApi(api.url)), new Conversations(httpApi(api.url))];
    const c = await one.start(owner);
    for (let i = 0; i < 8; i++)
      await (i % 2 ? two : one).add(owner, c, {
        question: `q${i}`,
        answer: `a${i}`,
        language: 'en',
        ...(i === 7 ? { topic: 'sales_today' } : {}),
      });
    expect(c.turns.map((t) => t.question)).toEqual(['q2', 'q3', 'q4', 'q5', 'q6', 'q7']);
    expect(await one.get(cashier, c.id)).toBeNull();
    const seen = (await two.get(owner, c.id))!;
    expect(seen.turns.map((t) => t.question)).toEqual(['q2', 'q3', 'q4', 'q5', 'q6', 'q7']);
    expect(seen.turns.at(-1)).toEqual({ question: 'q7', answer: 'a7', language: 'en', topic: 'sales_today' });
    api.t.clock.advance(60 * 60_000);
    expect(await two.get(owner, c.id)).toBeNull();
  });
});

/**
 * /ai/agent/…: the companion agent's memory through real HTTP. Conversations keep their last 6
 * turns and are forgotten after an idle hour; pending actions are claimed by exactly one
 * confirmation, whose outcome every later one reads; all of it is the caller's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneAgentState } from '../../server/src/modules/ai/services/agent-state-prune.js';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const HOUR = 3_600_000;
const proposal = {
  tool: 'updateProduct',
  arguments: { id: '0193a0f0-0000-7000-8000-000000000001', selling_price: 3200 },
  summary: 'Change Sugar 1 kg: selling price to TZS 3,200',
  language: 'en',
  ttl_seconds: 600,
};

describe('the companion agent’s memory', () => {
  let t: TestApp;
  let owner: Session;
  let staff: { token: string };
  let stranger: Session;

  beforeAll(async () => {
    t = await createTestApp({ config: { ACCESS_TOKEN_TTL: 86_400 } });
    owner = await registerOwner(t);
    staff = await createStaff(t, owner);
    stranger = await registerOwner(t);
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    t.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  const turn = (i: number) => ({ question: `q${i}`, answer: `a${i}`, language: 'en' });

  describe('conversations', () => {
    it('start empty, keep the last 6 turns in order and are their user’s only', async () => {
      const started = await call('POST', '/ai/agent/conversations', owner.token);
      expect(started.status, started.text).toBe(200);
      const id = started.body.data.id;
      expect(started.body.data).toEqual({ id, turns: [], expires_at: new Date(t.clock.now() + HOUR).toISOString() });
      for (let i = 0; i < 8; i++)
        expect((await call('POST', `/ai/agent/conversations/${id}/turns`, owner.token, turn(i))).status).toBe(200);
      const read = await call('GET', `/ai/agent/conversations/${id}`, owner.token);
      expect(read.body.data.turns.map((x: any) => x.question)).toEqual(['q2', 'q3', 'q4', 'q5', 'q6', 'q7']);
      expect((await t.db.db.selectFrom('agent_turns').select('seq').where('conversation_id', '=', id).execute()).length).toBe(6);

      for (const token of [staff.token, stranger.token]) {
        expect((await call('GET', `/ai/agent/conversations/${id}`, token)).status).toBe(404);
        expect((await call('POST', `/ai/agent/conversations/${id}/turns`, token, turn(9))).status).toBe(404);
      }
      expect((await call('GET', '/ai/agent/conversations/00000000-0000-4000-8000-000000000000', owner.token)).status).toBe(404);
    });

    it('are forgotten an hour after their last turn, which moves the hour on', async () => {
      const id = (await call('POST', '/ai/agent/conversations', owner.token)).body.data.id;
      t.clock.advance(HOUR - 1000);
      expect(
        (
          await call('POST', `/ai/agent/conversations/${id}/turns`, owner.token, {
            ...turn(1),
            topic: 'sales_today',
            subject: 'Sugar 1 kg',
          })
        ).body.data.turns,
      ).toEqual([{ ...turn(1), topic: 'sales_today', subject: 'Sugar 1 kg' }]);
      t.clock.advance(HOUR - 1000);
      expect((await call('GET', `/ai/agent/conversations/${id}`, owner.token)).status).toBe(200);
      t.clock.advance(1000);
      expect((await call('GET', `/ai/agent/conversations/${id}`, owner.token)).status).toBe(404);
      expect((await call('POST', `/ai/agent/conversations/${id}/turns`, owner.token, turn(2))).status).toBe(404);
    });

    it('refuse a malformed turn', async () => {
      const id = (await call('POST', '/ai/agent/conversations', owner.token)).body.data.id;
      for (const body of [{}, { ...turn(1), language: 'fr' }, { ...turn(1), question: '' }, { ...turn(1), answer: 'x'.repeat(20_001) }]) {
        expect(
          (await call('POST', `/ai/agent/conversations/${id}/turns`, owner.token, body)).status,
          JSON.stringify(body).slice(0, 80),
        ).toBe(400);
      }
    });
  });

  describe('pending actions', () => {
    const propose = async (token = owner.token, body: Record<string, unknown> = proposal) => {
      const res = await call('POST', '/ai/agent/actions', token, body);
      expect(res.status, res.text).toBe(200);
      return res.body.data;
    };
    const claim = (id: string, token = owner.token) => call('POST', `/ai/agent/actions/${id}/claim`, token);
    const record = (id: string, claimId: string, status = 200, token = owner.token) =>
      call('PUT', `/ai/agent/actions/${id}/outcome`, token, {
        claim_id: claimId,
        status,
        message: status === 200 ? 'product updated' : 'refused',
        ms: 12,
      });

    it('are kept pending with their expiry, in a conversation of their user’s only', async () => {
      const action = await propose();
      expect(action).toEqual({
        id: action.id,
        tool: 'updateProduct',
        arguments: proposal.arguments,
        summary: proposal.summary,
        language: 'en',
        conversation_id: null,
        expires_at: new Date(t.clock.now() + 600_000).toISOString(),
        state: 'pending',
        outcome: null,
      });
      const conversation = (await call('POST', '/ai/agent/conversations', owner.token)).body.data.id;
      expect((await propose(owner.token, { ...proposal, conversation_id: conversation })).conversation_id).toBe(conversation);
      expect((await call('POST', '/ai/agent/actions', staff.token, { ...proposal, conversation_id: conversation })).status).toBe(404);
      expect((await call('POST', '/ai/agent/actions', owner.token, { ...proposal, ttl_seconds: 5 })).status).toBe(400);
    });

    it('grant one claim; the others answer executing, then the recorded outcome, which the first recording fixes', async () => {
      const { id } = await propose();
      const first = await claim(id);
      expect(first.body.data).toMatchObject({
        claim: 'granted',
        claim_id: expect.any(String),
        action: { id, state: 'executing', outcome: null },
      });
      expect((await claim(id)).body.data).toMatchObject({ claim: 'executing', claim_id: null });

      const recorded = await record(id, first.body.data.claim_id);
      expect(recorded.body.data).toMatchObject({ state: 'done', outcome: { status: 200, message: 'product updated', ms: 12 } });
      expect((await record(id, first.body.data.claim_id, 500)).body.data.outcome.status).toBe(200);
      expect((await claim(id)).body.data).toMatchObject({ claim: 'done', action: { state: 'done', outcome: { status: 200 } } });
      // Kept for an hour after it was carried out, even past the proposal's expiry.
      t.clock.advance(HOUR - 1000);
      expect((await claim(id)).body.data.claim).toBe('done');
      t.clock.advance(1000);
      expect((await claim(id)).status).toBe(404);
    });

    it('grant exactly one of many claims made at once', async () => {
      const { id } = await propose();
      const claims = await Promise.all(Array.from({ length: 6 }, () => claim(id)));
      expect(claims.map((c) => c.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(claims.map((c) => c.body.data.claim).sort()).toEqual([
        'executing',
        'executing',
        'executing',
        'executing',
        'executing',
        'granted',
      ]);
    });

    it('grant a claim again once a claim’s lease lapsed without an outcome; the lapsed claim can then no longer record one', async () => {
      const { id } = await propose();
      const dead = (await claim(id)).body.data.claim_id;
      t.clock.advance(59_000);
      expect((await claim(id)).body.data.claim).toBe('executing');
      // Past the proposal's expiry too: its user confirmed in time.
      t.clock.advance(600_000);
      const retry = (await claim(id)).body.data;
      expect(retry.claim).toBe('granted');
      const stale = await record(id, dead);
      expect(stale.status).toBe(409);
      expect(stale.body.errors[0].code).toBe('INVALID_STATE');
      expect((await record(id, retry.claim_id)).body.data.state).toBe('done');
    });

    it('are unknown to other users and answer 410 once expired unconfirmed', async () => {
      const { id } = await propose();
      for (const token of [staff.token, stranger.token]) {
        expect((await claim(id, token)).status).toBe(404);
        expect((await record(id, '0193a0f0-0000-7000-8000-000000000002', 200, token)).status).toBe(404);
      }
      expect((await claim('00000000-0000-4000-8000-000000000000')).status).toBe(404);
      t.clock.advance(600_000);
      const late = await claim(id);
      expect(late.status).toBe(410);
      expect(late.body.errors[0]).toMatchObject({ code: 'EXPIRED' });
      expect((await claim(id, staff.token)).status).toBe(404);
    });
  });

  it('prunes what has expired, and only that', async () => {
    const conversation = (await call('POST', '/ai/agent/conversations', owner.token)).body.data.id;
    await call('POST', `/ai/agent/conversations/${conversation}/turns`, owner.token, turn(1));
    const action = (await call('POST', '/ai/agent/actions', owner.token, proposal)).body.data.id;
    const count = async () => ({
      conversations: (await t.db.db.selectFrom('agent_conversations').select('id').where('id', '=', conversation).execute()).length,
      turns: (await t.db.db.selectFrom('agent_turns').select('seq').where('conversation_id', '=', conversation).execute()).length,
      actions: (await t.db.db.selectFrom('agent_actions').select('id').where('id', '=', action).execute()).length,
    });
    const ctx = { db: t.db.db, clock: t.clock };
    await pruneAgentState(ctx);
    expect(await count()).toEqual({ conversations: 1, turns: 1, actions: 1 });
    t.clock.advance(HOUR);
    await pruneAgentState(ctx);
    expect(await count()).toEqual({ conversations: 0, turns: 0, actions: 1 });
    t.clock.advance(600_000);
    await pruneAgentState(ctx);
    expect(await count()).toEqual({ conversations: 0, turns: 0, actions: 0 });
    expect((await t.db.db.selectFrom('agent_actions').select('id').execute()).length).toBe(0);
  });
});

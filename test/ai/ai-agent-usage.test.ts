/** POST /ai/usage/agent: the companion agent's questions and tokens in the organisation's AI usage. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('AI usage of companion-agent questions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.db.db.updateTable('plans').set({ ai_credits_monthly: 2 }).where('code', '=', 'free').execute();
  });
  afterAll(() => t.close());

  it('a question takes a credit, tokens add up, the question after the last credit is 402 and records nothing', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const record = (token: string, body: unknown) => t.request('POST', '/ai/usage/agent', { token, body });

    const first = await record(staff.token, { questions: 1 });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ credits_used: 1, credits_remaining: 1, tokens_used: 0 });
    expect((await record(staff.token, { tokens_used: 1234 })).body.data).toMatchObject({ credits_used: 1, tokens_used: 1234 });
    expect((await record(owner.token, { questions: 1, tokens_used: 66 })).body.data).toMatchObject({
      credits_used: 2,
      credits_remaining: 0,
      tokens_used: 1300,
    });

    const refused = await record(owner.token, { questions: 1, tokens_used: 5 });
    expect(refused.status).toBe(402);
    expect(refused.body.errors[0]).toMatchObject({ code: 'PLAN_LIMIT', field: 'ai_credits' });
    const usage = await t.request('GET', '/ai/usage', { token: owner.token });
    expect(usage.body.data).toMatchObject({ credits_used: 2, credits_remaining: 0, tokens_used: 1300 });

    const other = await registerOwner(t);
    expect((await t.request('GET', '/ai/usage', { token: other.token })).body.data).toMatchObject({ credits_used: 0, tokens_used: 0 });
  });

  it('refuses an empty record, a bad body and a missing token', async () => {
    const owner = await registerOwner(t);
    for (const body of [{}, { questions: 2 }, { tokens_used: -1 }, { questions: 0, tokens_used: 0 }]) {
      const res = await t.request('POST', '/ai/usage/agent', { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

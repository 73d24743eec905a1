/**
 * Two agent instances behind one API, as behind a load balancer: a conversation started on one is
 * continued on the other, a change proposed on one is confirmed on the other, and confirmations
 * reaching both at once carry the change out exactly once. Another user can do neither, and a
 * change not confirmed in time stays undone.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DukaApi, httpApi } from '../src/api-client.js';
import { createAgent } from '../src/app.js';
import { agentConfig } from '../src/config.js';
import {
  addProduct,
  type Agent,
  type Api,
  createStaff,
  registerOwner,
  sell,
  type Session,
  type Staff,
  startAgent,
  startApi,
} from './harness.js';

describe('two agent instances against one API', () => {
  let api: Api;
  let a: Agent;
  let b: Agent;
  let owner: Session;
  let cashier: Staff;
  let sugar: string;

  beforeAll(async () => {
    api = await startApi({ config: { ACCESS_TOKEN_TTL: 86_400 } });
    [a, b] = await Promise.all([startAgent(api.url), startAgent(api.url)]);
    owner = await registerOwner(api.t);
    cashier = await createStaff(api.t, owner);
    sugar = await addProduct(api, owner, { name: 'Sugar 1 kg', price: 3000, stock: 40 });
    await sell(api, owner, [[sugar, 2]]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await api.close();
  });

  const ask = async (agent: Agent, s: { token: string }, body: Record<string, unknown>) => {
    const res = await agent.ask(s.token, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const price = async () => (await api.t.request('GET', `/inventory/products/${sugar}`, { token: owner.token })).body.data.selling_price;
  const priceChanges = async () =>
    (await api.t.db.db.selectFrom('product_prices').select('id').where('product_id', '=', sugar).execute()).length;
  const writes = (...agents: Agent[]) =>
    agents
      .flatMap((x) => x.logs.map((l) => JSON.parse(l)))
      .filter((l) => l.msg === 'tool call' && l.tool === 'updateProduct' && l.status === 'ok').length;

  it('continues on B a conversation started on A: the follow-up refers to the previous answer', async () => {
    const first = await ask(a, owner, { question: 'How much did I sell today?' });
    expect(first.answer).toMatch(/^Sales today \(\d{4}-\d{2}-\d{2}\): 1 sales?, TZS 6,000 in total\.$/);
    const follow = await ask(b, owner, { question: 'and yesterday?', conversation_id: first.conversation_id });
    expect(follow.answer).toMatch(/^Sales yesterday \(\d{4}-\d{2}-\d{2}\): 0 sales, TZS 0 in total\.$/);
    expect(follow.conversation_id).toBe(first.conversation_id);
    expect((await b.ask(cashier.token, { question: 'and yesterday?', conversation_id: first.conversation_id })).status).toBe(404);
  });

  it('carries out on B a change proposed on A, once, and answers a repeat on A with the same outcome', async () => {
    const asked = await ask(a, owner, { question: 'Put sugar 1 kg at 3,200' });
    expect(asked.pending_action).toMatchObject({ tool: 'updateProduct', arguments: { id: sugar, selling_price: 3200 } });
    const before = await priceChanges();

    expect((await b.ask(cashier.token, { confirm: asked.pending_action.id })).status).toBe(404);
    expect(await price()).toBe(3000);

    const done = await ask(b, owner, { confirm: asked.pending_action.id });
    expect(done).toMatchObject({
      answer: 'Done: Change Sugar 1 kg: selling price to TZS 3,200.',
      mode: 'confirmation',
      conversation_id: asked.conversation_id,
      budget: { used: 1 },
    });
    const again = await ask(a, owner, { confirm: asked.pending_action.id });
    expect(again).toMatchObject({ answer: done.answer, budget: { used: 0 } });
    expect(await price()).toBe(3200);
    expect(await priceChanges()).toBe(before + 1);
    expect(writes(a, b)).toBe(1);

    // The confirmation continued the conversation it was proposed in, on either instance.
    const turns = (await api.t.request('GET', `/ai/agent/conversations/${asked.conversation_id}`, { token: owner.token })).body.data.turns;
    expect(turns.map((t: any) => t.answer)).toEqual([asked.answer, done.answer, done.answer]);
  });

  it('carries out a change confirmed on A and B at the same moment exactly once, both answering its outcome', async () => {
    const asked = await ask(b, owner, { question: 'Put sugar 1 kg at 3,500' });
    const before = await priceChanges();
    const writesBefore = writes(a, b);
    const answers = await Promise.all([a, b, a, b].map((agent) => ask(agent, owner, { confirm: asked.pending_action.id })));
    for (const res of answers) expect(res.answer).toBe('Done: Change Sugar 1 kg: selling price to TZS 3,500.');
    expect(answers.map((r) => r.budget.used).sort()).toEqual([0, 0, 0, 1]);
    expect(await price()).toBe(3500);
    expect(await priceChanges()).toBe(before + 1);
    expect(writes(a, b) - writesBefore).toBe(1);
  });

  it('refuses with 410 a change confirmed after its time, on either instance, and changes nothing', async () => {
    const asked = await ask(a, owner, { question: 'Put sugar 1 kg at 3,900' });
    api.t.clock.advance(600_000);
    for (const agent of [b, a]) {
      const late = await agent.ask(owner.token, { confirm: asked.pending_action.id });
      expect(late.status).toBe(410);
      expect(late.body.message).toBe('this change was not confirmed in time; ask again');
    }
    expect(await price()).toBe(3500);
  });

  it('answers a clear 502 when the API cannot keep its memory, with nothing of the API inside', async () => {
    const real = httpApi(api.url);
    const failing: DukaApi = {
      openapi: () => real.openapi(),
      request: (token, method, path, opts) =>
        path.startsWith('/ai/agent/')
          ? Promise.resolve({ status: 500, body: { success: false, message: 'relation "agent_conversations" does not exist' } })
          : real.request(token, method, path, opts),
    };
    const { app } = createAgent({ config: agentConfig({ API_URL: api.url }), log: pino({ level: 'silent' }), api: failing });
    const res = await app.request('/ask', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'How much did I sell today?' }),
    });
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body).toMatchObject({
      success: false,
      message: "the Duka API could not keep the agent's memory; nothing was changed, ask again",
    });
    expect(JSON.stringify(body)).not.toContain('relation');
  });
});

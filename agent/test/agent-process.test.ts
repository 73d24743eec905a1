/** `npm run agent` as its own process: config validated once at start, then questions over a real port. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startScript } from '../../test/setup/processes.js';
import { addProduct, type Api, registerOwner, sell, startApi } from './harness.js';

const start = (env: Record<string, string>) => startScript('agent/src/index.ts', env);

describe('npm run agent', () => {
  let api: Api;
  beforeAll(async () => (api = await startApi()));
  afterAll(() => api.close());

  it('stops with one line on a bad value', async () => {
    const proc = start({ AGENT_PORT: 'eighty', API_URL: 'not a url' });
    expect(await proc.exited).toBe(1);
    expect(proc.errors().trim().split('\n')).toEqual([expect.stringMatching(/^invalid agent configuration: AGENT_PORT: .+; API_URL: .+$/)]);
  });

  it('serves questions on AGENT_PORT against API_URL', async () => {
    const owner = await registerOwner(api.t);
    const product = await addProduct(api, owner, { name: 'Maziwa 500 ml', price: 1500, stock: 30 });
    await sell(api, owner, [[product, 3]]);
    const port = await freePort();
    const proc = start({ AGENT_PORT: String(port), AGENT_HOST: '127.0.0.1', API_URL: api.url, LOG_LEVEL: 'info' });
    try {
      const until = Date.now() + 20_000;
      while (!proc.output().includes('Duka agent at')) {
        if (Date.now() > until || proc.child.exitCode !== null) throw new Error(`the agent did not start: ${proc.errors()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await (await fetch(`http://127.0.0.1:${port}/health`)).json()).toEqual({ status: 'ok', mode: 'planner' });
      const res = await fetch(`http://127.0.0.1:${port}/ask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'Mauzo ya leo ni kiasi gani?' }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { answer: string }).answer).toMatch(/^Mauzo ya leo \(\d{4}-\d{2}-\d{2}\): mauzo 1, jumla TZS 4,500\.$/);
      expect(proc.output()).toContain('"msg":"tool call"');
      expect(proc.output()).not.toContain(owner.token);
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });
});

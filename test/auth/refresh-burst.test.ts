/**
 * Many tills refreshing at once. Tills that signed in together see their access tokens expire
 * together, and all refresh in the same second (after an outage, too). On Postgres the refresh
 * used to count its rate limit inside its transaction, and the limiter takes a pool connection
 * of its own: with as many refreshes as connections, each held one and waited for another, and
 * the pool hung for good (the 500-till soak stopped there, at minute 14, when its first tokens
 * expired). Here more refreshes than the test pool's 20 connections run at once and all answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('a burst of refreshes', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('answers 40 refreshes made at once, each with a new pair', async () => {
    const owner = await registerOwner(t);
    const refreshTokens: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } });
      expect(res.status, res.text).toBe(200);
      refreshTokens.push(res.body.data.refresh_token);
    }
    const burst = Promise.all(refreshTokens.map((refresh_token) => t.request('POST', '/auth/refresh', { body: { refresh_token } })));
    const outcome = await Promise.race([burst, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);
    expect(outcome).not.toBe('hung');
    const answers = outcome as Awaited<typeof burst>;
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(new Set(answers.map((a) => a.body.data.refresh_token)).size).toBe(40);
  }, 60_000);
});

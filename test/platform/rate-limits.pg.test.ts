/** Two server instances on one Postgres share the sign-in limits and locks: guessing on both gains nothing. */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createDeps } from '../../server/src/app.js';
import { createDb } from '../../server/src/db/create-db.js';
import type { DbHandle } from '../../server/src/db/handle.js';
import { uniqueEmail } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('auth rate limits across instances (postgres)', () => {
  let t: TestApp;
  let second: DbHandle;
  let other: ReturnType<typeof createApp>;
  beforeAll(async () => {
    t = await createTestApp({
      config: { RATE_LIMIT_ADDRESS_FAILURES_PER_MIN: 3, RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 3, TRUST_PROXY: 1 },
    });
    second = createDb({ url: t.db.url!, poolSize: 2 });
    other = createApp(createDeps(t.config, second, pino({ level: 'silent' }), t.clock), second.ping);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  const body = (identifier: string) => JSON.stringify({ identifier, password: 'wrongpass1' });
  const headers = (ip: string) => ({ 'content-type': 'application/json', 'x-forwarded-for': ip });
  const onFirst = (ip: string, identifier: string) => t.request('POST', '/auth/login', { raw: body(identifier), headers: headers(ip) });
  const onSecond = async (ip: string, identifier: string) => {
    const res = await other.request(`${t.config.BASE_PATH}/auth/login`, { method: 'POST', headers: headers(ip), body: body(identifier) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('counts one address’s refused sign-ins on both instances together', async () => {
    expect((await onFirst('10.1.0.1', uniqueEmail())).status).toBe(401);
    expect((await onSecond('10.1.0.1', uniqueEmail())).status).toBe(401);
    expect((await onFirst('10.1.0.1', uniqueEmail())).status).toBe(401);
    const fourth = await onSecond('10.1.0.1', uniqueEmail());
    expect(fourth.status).toBe(429);
    expect(fourth.body.errors[0].code).toBe('RATE_LIMITED');
    expect((await onFirst('10.1.0.1', uniqueEmail())).status).toBe(429);
    expect((await onSecond('10.1.0.2', uniqueEmail())).status).toBe(401);
  });

  it('counts one account name’s wrong passwords on both instances together, whatever the addresses', async () => {
    const email = uniqueEmail();
    expect((await onFirst('10.2.0.1', email)).status).toBe(401);
    expect((await onSecond('10.2.0.2', email)).status).toBe(401);
    expect((await onFirst('10.2.0.3', email.toUpperCase())).status).toBe(401);
    const capped = await onSecond('10.2.0.4', email);
    expect(capped.status).toBe(423);
    expect(capped.body.errors[0].code).toBe('ACCOUNT_LOCKED');
  });
});

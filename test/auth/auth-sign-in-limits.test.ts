/**
 * Issue 18, sign-in limits a shop behind one address survives: failures are counted per address
 * and account name, per account name, and per address; successes never are; /auth/refresh is
 * limited per sign-in; the client address is read from the right of X-Forwarded-For.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/src/modules/tenancy/users.queries.js';
import { hashSecret } from '../../server/src/lib/crypto.js';
import { codeIn, e164, lastMessage, PASSWORD, registerOwner, uniqueEmail, uniquePhone } from '../setup/factories.js';
import { type ApiResponse, createTestApp, listen, type Listening, type TestApp } from '../setup/test-app.js';

/** The production defaults of the auth limits (testConfig loosens them for other suites). */
const DEFAULTS = {
  RATE_LIMIT_AUTH_PER_MIN: 10,
  RATE_LIMIT_ADDRESS_FAILURES_PER_MIN: 300,
  RATE_LIMIT_ADDRESS_CODES_PER_MIN: 120,
  RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 20,
};

const expectLocked = (res: ApiResponse, retryAfter?: string) => {
  expect(res.status, res.text).toBe(423);
  expect(res.body.errors[0].code).toBe('ACCOUNT_LOCKED');
  if (retryAfter) expect(res.headers.get('retry-after')).toBe(retryAfter);
};

describe('sign-in limits with the default settings, behind a proxy (1 hop)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ config: { ...DEFAULTS, TRUST_PROXY: 1 } })));
  afterAll(() => t.close());

  const from = (address: string, path: string, body: unknown) => t.request('POST', path, { body, headers: { 'x-forwarded-for': address } });
  const login = (address: string, identifier: string, password: string) => from(address, '/auth/login', { identifier, password });

  it('lets 200 different accounts sign in and then refresh from one address within a minute', async () => {
    const owner = await registerOwner(t);
    const hash = await hashSecret(PASSWORD);
    const phones = [owner.phone];
    for (let i = 1; i < 200; i++) {
      const phone = uniquePhone();
      await insertUser(
        t.db.db,
        {
          org_id: owner.orgId,
          store_id: owner.storeId,
          first_name: `Till ${i}`,
          phone: e164(phone),
          email: null,
          password_hash: hash,
          role: 'staff',
        },
        t.clock.now(),
      );
      phones.push(phone);
    }
    const shop = '41.59.10.10';
    const statuses = { login: [] as number[], refresh: [] as number[] };
    // Ten at a time, as tills coming up after a power cut would.
    for (let i = 0; i < phones.length; i += 10) {
      await Promise.all(
        phones.slice(i, i + 10).map(async (phone) => {
          const signedIn = await login(shop, phone, PASSWORD);
          statuses.login.push(signedIn.status);
          if (signedIn.status !== 200) return;
          const refreshed = await from(shop, '/auth/refresh', { refresh_token: signedIn.body.data.refresh_token });
          statuses.refresh.push(refreshed.status);
        }),
      );
    }
    expect(statuses.login).toEqual(Array(200).fill(200));
    expect(statuses.refresh).toEqual(Array(200).fill(200));
  }, 180_000);

  it('lets 1,000 wrong passwords from many addresses check only 20, refuses the right one after, and leaves the owner SMS sign-in, their own address and a notification', async () => {
    const owner = await registerOwner(t);
    const home = '41.59.20.20';
    // The owner signed in from home last week: that address has proved the account.
    expect((await login(home, owner.email, PASSWORD)).status).toBe(200);
    t.clock.advance(7 * 86_400_000);

    const counts: Record<number, number> = {};
    for (let i = 0; i < 1000; i++) {
      const res = await login(`100.64.${i % 4}.${i % 250}`, owner.email, `guess${i}x`);
      counts[res.status] = (counts[res.status] ?? 0) + 1;
    }
    // Only the hour's 20 were checked; the rest were refused before any password was compared.
    expect(counts).toEqual({ 401: 20, 423: 980 });
    const right = await login('100.64.9.9', owner.email, PASSWORD);
    expectLocked(right);
    expect(Number(right.headers.get('retry-after'))).toBeLessThanOrEqual(3600);

    // The owner signs in with a code by SMS from a new address, and then by password from it.
    const cafe = '41.59.30.30';
    expect((await from(cafe, '/auth/otp/send', { phone: owner.phone, purpose: 'login' })).status).toBe(200);
    const code = codeIn((await lastMessage(t, e164(owner.phone)))!.body);
    const byCode = await from(cafe, '/auth/otp/verify', { phone: owner.phone, purpose: 'login', code });
    expect(byCode.status, byCode.text).toBe(200);
    expect((await login(cafe, owner.email, PASSWORD)).status).toBe(200);
    // From home too, by the phone number or the email, while the attack's hour still runs.
    expect((await login(home, owner.phone, PASSWORD)).status).toBe(200);
    expect((await login(home, owner.email, PASSWORD)).status).toBe(200);
    // Anywhere else, once the attacker has stopped for the hour.
    expectLocked(await login('41.59.40.40', owner.email, PASSWORD));
    t.clock.advance(3_600_000);
    const later = await login('41.59.40.40', owner.email, PASSWORD);
    expect(later.status).toBe(200);

    // Told once, in the app (the notice is written after the answer).
    let notices: any[] = [];
    for (let i = 0; i < 50 && notices.length === 0; i++) {
      const res = await t.request('GET', '/notifications', { token: later.body.data.access_token });
      notices = res.body.data.notifications.filter((n: any) => n.title === 'Someone is trying to sign in to your account');
      if (notices.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ category: 'system', store_id: owner.storeId, is_read: false });
    expect(notices[0].body).toMatch(/code sent by SMS/);
  }, 120_000);

  it('counts tries sent all at once before checking them: 60 from many addresses get 20 checks, 10 from one address get 4 and a lock', async () => {
    const owner = await registerOwner(t);
    const tally = (rs: ApiResponse[]) =>
      rs.reduce<Record<number, number>>((acc, r) => {
        acc[r.status] = (acc[r.status] ?? 0) + 1;
        return acc;
      }, {});
    const spread = await Promise.all(Array.from({ length: 60 }, (_, i) => login(`100.68.0.${i}`, owner.email, 'wrongpass1')));
    expect(tally(spread)).toEqual({ 401: 20, 423: 40 });
    const ghost = uniqueEmail('ghost');
    const one = await Promise.all(Array.from({ length: 10 }, () => login('100.69.0.1', ghost, 'wrongpass1')));
    expect(tally(one)).toEqual({ 401: 4, 423: 6 });
  });

  it('keeps a lock held from one address away from the same account at another address', async () => {
    const owner = await registerOwner(t);
    const attacker = '100.65.0.1';
    for (let i = 0; i < 4; i++) expect((await login(attacker, owner.email, 'wrongpass1')).status).toBe(401);
    expectLocked(await login(attacker, owner.email, 'wrongpass1'), '900');
    expectLocked(await login(attacker, owner.email, PASSWORD), '900');
    const mine = await login('41.59.50.50', owner.email, PASSWORD);
    expect(mine.status).toBe(200);
    expect(mine.body.data.user.id).toBe(owner.userId);
    expectLocked(await login(attacker, owner.email, PASSWORD), '900');
  });

  it('locks again for twice as long after each lock, and locks an unknown name exactly as a real one', async () => {
    const owner = await registerOwner(t);
    const ghost = uniqueEmail('ghost');
    const address = '100.66.0.1';
    for (let i = 0; i < 4; i++) {
      const real = await login(address, owner.email, 'wrongpass1');
      const unknown = await login(address, ghost, 'wrongpass1');
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ ...real.body, meta: unknown.body.meta });
    }
    for (const [wait, lock] of [
      [0, '900'],
      [900_000, '1800'],
      [1_800_000, '3600'],
    ] as const) {
      t.clock.advance(wait);
      const real = await login(address, owner.email, 'wrongpass1');
      const unknown = await login(address, ghost, 'wrongpass1');
      expectLocked(real, lock);
      expectLocked(unknown, lock);
      expect(unknown.body).toEqual({ ...real.body, meta: unknown.body.meta });
    }
    // The right password after the lock starts the count again.
    t.clock.advance(3_600_000);
    expect((await login(address, owner.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(address, owner.email, 'wrongpass1')).status).toBe(401);
    expectLocked(await login(address, owner.email, 'wrongpass1'), '900');
  });

  it('lifts the lock on the address the owner resets the password from', async () => {
    const owner = await registerOwner(t);
    const address = '100.67.0.1';
    for (let i = 0; i < 5; i++) await login(address, owner.phone, 'wrongpass1');
    expectLocked(await login(address, owner.phone, PASSWORD));
    expect((await from(address, '/auth/password/forgot', { identifier: owner.phone })).status).toBe(200);
    const otp = codeIn((await lastMessage(t, e164(owner.phone)))!.body);
    const reset = await from(address, '/auth/password/reset', {
      identifier: owner.phone,
      otp,
      new_password: 'mpyaSana2026',
      confirm_password: 'mpyaSana2026',
    });
    expect(reset.status, reset.text).toBe(200);
    expect((await login(address, owner.phone, 'mpyaSana2026')).status).toBe(200);
  });
});

describe('the per-address ceiling counts failures, never successes; refresh is limited per sign-in', () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await createTestApp({ config: { RATE_LIMIT_AUTH_PER_MIN: 3, RATE_LIMIT_ADDRESS_FAILURES_PER_MIN: 3, TRUST_PROXY: 1 } })),
  );
  afterAll(() => t.close());

  const from = (address: string, path: string, body: unknown) => t.request('POST', path, { body, headers: { 'x-forwarded-for': address } });

  it('refuses an address (429) once it has had its minute of refused sign-ins, whatever the names, however many sign-ins succeeded', async () => {
    const owners = [await registerOwner(t), await registerOwner(t), await registerOwner(t), await registerOwner(t)];
    const shop = '41.59.60.60';
    for (let round = 0; round < 3; round++) {
      for (const o of owners) expect((await from(shop, '/auth/login', { identifier: o.email, password: PASSWORD })).status).toBe(200);
    }
    for (let i = 0; i < 3; i++)
      expect((await from(shop, '/auth/login', { identifier: uniqueEmail(), password: 'wrongpass1' })).status).toBe(401);
    const limited = await from(shop, '/auth/login', { identifier: owners[0]!.email, password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Wrong codes count too.
    expect((await from('41.59.61.61', '/auth/otp/verify', { phone: uniquePhone(), purpose: 'login', code: '123456' })).status).toBe(401);
    // Another address is untouched, and the minute passes.
    expect((await from('41.59.62.62', '/auth/login', { identifier: owners[0]!.email, password: PASSWORD })).status).toBe(200);
    t.clock.advance(60_000);
    expect((await from(shop, '/auth/login', { identifier: owners[0]!.email, password: PASSWORD })).status).toBe(200);
  });

  it('limits refreshes per sign-in, not per address: one session’s fourth refresh in a minute is refused, others go on', async () => {
    const owner = await registerOwner(t);
    const shop = '41.59.80.80';
    let refresh = owner.refresh;
    for (let i = 0; i < 3; i++) {
      const res = await from(shop, '/auth/refresh', { refresh_token: refresh });
      expect(res.status, res.text).toBe(200);
      refresh = res.body.data.refresh_token;
    }
    const limited = await from(shop, '/auth/refresh', { refresh_token: refresh });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].code).toBe('RATE_LIMITED');
    const other = await registerOwner(t);
    expect((await from(shop, '/auth/refresh', { refresh_token: other.refresh })).status).toBe(200);
  });
});

describe('the per-address ceiling on codes', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ config: { RATE_LIMIT_ADDRESS_CODES_PER_MIN: 3, TRUST_PROXY: 1 } })));
  afterAll(() => t.close());

  const from = (address: string, path: string, body: unknown) => t.request('POST', path, { body, headers: { 'x-forwarded-for': address } });

  it('limits codes asked for from one address, leaving other addresses alone', async () => {
    for (let i = 0; i < 3; i++)
      expect((await from('41.59.70.70', '/auth/otp/send', { phone: uniquePhone(), purpose: 'login' })).status).toBe(200);
    const limited = await from('41.59.70.70', '/auth/password/forgot', { identifier: uniqueEmail() });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].code).toBe('RATE_LIMITED');
    expect((await from('41.59.71.71', '/auth/otp/send', { phone: uniquePhone(), purpose: 'login' })).status).toBe(200);
  });
});

describe('TRUST_PROXY reads the client address from the right of X-Forwarded-For', () => {
  let t: TestApp;
  let server: Listening;
  afterEach(async () => {
    await server.close();
    await t.close();
  });

  async function start(trust: number | string[]) {
    t = await createTestApp({ config: { TRUST_PROXY: trust } });
    server = await listen(t);
  }
  const login = async (xff: string | null, identifier: string, password: string) => {
    const res = await fetch(`${server.origin}${t.config.BASE_PATH}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(xff ? { 'x-forwarded-for': xff } : {}) },
      body: JSON.stringify({ identifier, password }),
    });
    return res.status;
  };

  it('with 1 hop, a forged leftmost value does not change the address counted; the hop our proxy appended does', async () => {
    await start(1);
    const owner = await registerOwner(t);
    for (let i = 0; i < 5; i++) await login(`10.0.0.${i}, 198.51.100.7`, owner.email, 'wrongpass1');
    expect(await login('198.51.100.8, 198.51.100.7', owner.email, PASSWORD)).toBe(423);
    expect(await login('1.2.3.4, 5.6.7.8, 198.51.100.7', owner.email, PASSWORD)).toBe(423);
    expect(await login('198.51.100.7', owner.email, PASSWORD)).toBe(423);
    expect(await login('198.51.100.7, 198.51.100.9', owner.email, PASSWORD)).toBe(200);
  });

  it('with a list of trusted proxies, walks past them only', async () => {
    await start(['loopback', '10.0.0.0/8']);
    const owner = await registerOwner(t);
    // The socket is loopback and 10.1.1.1 a trusted proxy: the client is 198.51.100.7.
    for (let i = 0; i < 5; i++) await login(`203.0.113.${i}, 198.51.100.7, 10.1.1.1`, owner.email, 'wrongpass1');
    expect(await login('198.51.100.7, 10.2.2.2', owner.email, PASSWORD)).toBe(423);
    expect(await login('198.51.100.9, 10.1.1.1', owner.email, PASSWORD)).toBe(200);
  });

  it('with no proxy (0), ignores the header: every value is the socket’s address', async () => {
    await start(0);
    const owner = await registerOwner(t);
    for (let i = 0; i < 5; i++) await login(`198.51.100.${i}`, owner.email, 'wrongpass1');
    expect(await login('198.51.100.99', owner.email, PASSWORD)).toBe(423);
    expect(await login(null, owner.email, PASSWORD)).toBe(423);
  });
});

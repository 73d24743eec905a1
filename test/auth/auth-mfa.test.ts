import { Envelope, LoginResult, TotpSetup, TotpStatus } from '@duka/shared';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTotp } from '../../server/src/lib/auth/totp.js';
import { addStore, createAdmin, createStaff, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const STEP = 30_000;
type Admin = { email: string; password: string; secret: string; token: string };

const login = (t: TestApp, identifier: string, password: string) => t.request('POST', '/auth/login', { body: { identifier, password } });
const mfaVerify = (t: TestApp, mfa_token: string, code: string) =>
  t.request('POST', '/auth/mfa/totp/verify', { body: { mfa_token, code } });

/** A platform admin who has enrolled an authenticator (their token is password-only). */
async function enrolledAdmin(t: TestApp): Promise<Admin> {
  const admin = await createAdmin(t);
  const token = (await login(t, admin.email, admin.password)).body.data.access_token as string;
  const secret = (await t.request('POST', '/accounts/mfa/totp/setup', { token })).body.data.secret as string;
  const res = await t.request('POST', '/accounts/mfa/totp/verify', { token, body: { code: currentTotp(secret, t.clock.now()) } });
  expect(res.status, res.text).toBe(200);
  return { ...admin, secret, token };
}

/** Both steps of an admin sign-in, in a fresh time step so that the code has not been used. */
async function mfaSignIn(t: TestApp, admin: Admin) {
  t.clock.advance(STEP);
  const first = await login(t, admin.email, admin.password);
  expect(first.status).toBe(200);
  const code = currentTotp(admin.secret, t.clock.now());
  const res = await mfaVerify(t, first.body.data.mfa_token, code);
  expect(res.status, res.text).toBe(200);
  return { token: res.body.data.access_token as string, refresh: res.body.data.refresh_token as string, code };
}

const expectStatus = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body.errors[0].code).toBe(code);
};

describe('admin authenticator MFA', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  // That such a token is refused every admin route (403), and an owner every admin and MFA enrolment route: test/api/access-rules.test.ts.
  it('gives a password-only admin tokens without MFA in them', async () => {
    const admin = await createAdmin(t);
    const res = await login(t, admin.email, admin.password);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ role: 'admin', email: admin.email });
    expect(decodeJwt(res.body.data.access_token)).toMatchObject({ role: 'admin', amr: ['pwd'], org: null });
  });

  it('enrols: setup gives an otpauth:// URI and secret, a current code enables it', async () => {
    const admin = await createAdmin(t);
    const token = (await login(t, admin.email, admin.password)).body.data.access_token;
    const status = () => t.request('GET', '/accounts/mfa/totp/status', { token });
    expect(Envelope(TotpStatus).parse((await status()).body).data).toEqual({ enabled: false, pending: false });

    const setup = await t.request('POST', '/accounts/mfa/totp/setup', { token });
    expect(setup.status).toBe(200);
    const { data } = Envelope(TotpSetup).parse(setup.body);
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data).toMatchObject({ issuer: 'Duka', account: admin.email });
    expect(data.otpauth_uri.startsWith('otpauth://totp/')).toBe(true);
    expect(new URL(data.otpauth_uri).searchParams.get('secret')).toBe(data.secret);
    expect((await status()).body.data).toEqual({ enabled: false, pending: true });

    const good = currentTotp(data.secret, t.clock.now());
    const wrong = await t.request('POST', '/accounts/mfa/totp/verify', {
      token,
      body: { code: String((Number(good) + 1) % 1e6).padStart(6, '0') },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].field).toBe('code');
    expect((await status()).body.data).toEqual({ enabled: false, pending: true });

    const ok = await t.request('POST', '/accounts/mfa/totp/verify', { token, body: { code: good } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ enabled: true, pending: false });
    expect((await status()).body.data).toEqual({ enabled: true, pending: false });
    expect((await t.request('GET', '/accounts/me', { token })).body.data.user.mfa_enabled).toBe(true);
    expectStatus(await t.request('POST', '/accounts/mfa/totp/setup', { token }), 409, 'INVALID_STATE');
  });

  it('answers an enrolled admin’s password login with an MFA challenge and no tokens', async () => {
    const admin = await enrolledAdmin(t);
    const res = await login(t, admin.email, admin.password);
    expect(res.status).toBe(200);
    const { data } = Envelope(LoginResult).parse(res.body);
    expect(data).toEqual({ mfa_required: true, mfa_token: expect.any(String), expires_in: 300 });
    expect(res.body.data).not.toHaveProperty('access_token');
    expect(res.body.data).not.toHaveProperty('refresh_token');
    // The challenge is not an access token.
    if (!('mfa_token' in data)) throw new Error('expected a challenge');
    expectStatus(await t.request('GET', '/accounts/me', { token: data.mfa_token }), 401, 'UNAUTHENTICATED');
    // The enrolment code cannot be replayed to finish the sign-in.
    expectStatus(await mfaVerify(t, data.mfa_token, currentTotp(admin.secret, t.clock.now())), 401, 'INVALID_CREDENTIALS');
  });

  it('signs in with the code; the tokens open the admin routes, also after a refresh', async () => {
    const admin = await enrolledAdmin(t);
    const { token, refresh } = await mfaSignIn(t, admin);
    expect(decodeJwt(token)).toMatchObject({ role: 'admin', amr: ['pwd', 'mfa'] });
    const health = await t.request('GET', '/admin/monitoring/health', { token });
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ database: 'ok', dialect: t.dialect, outbox_failed: 0 });
    const r = await t.request('POST', '/auth/refresh', { body: { refresh_token: refresh } });
    expect(decodeJwt(r.body.data.access_token).amr).toEqual(['pwd', 'mfa']);
    expect((await t.request('GET', '/admin/dashboard', { token: r.body.data.access_token })).status).toBe(200);
  });

  it('refuses a used code (replay) and a wrong code with 401', async () => {
    const admin = await enrolledAdmin(t);
    const { code } = await mfaSignIn(t, admin);
    const challenge = (await login(t, admin.email, admin.password)).body.data.mfa_token;
    const replay = await mfaVerify(t, challenge, code);
    expectStatus(replay, 401, 'INVALID_CREDENTIALS');
    expect(replay.body.data).toBeNull();

    t.clock.advance(STEP);
    const fresh = currentTotp(admin.secret, t.clock.now());
    expectStatus(await mfaVerify(t, challenge, String((Number(fresh) + 1) % 1e6).padStart(6, '0')), 401, 'INVALID_CREDENTIALS');
    expectStatus(await mfaVerify(t, 'not-a-token', fresh), 401, 'UNAUTHENTICATED');
    expect((await mfaVerify(t, challenge, fresh)).status).toBe(200);
  });

  it('accepts one code only once even when two sign-ins race with it', async () => {
    const admin = await enrolledAdmin(t);
    t.clock.advance(STEP);
    const challenges = await Promise.all(
      [1, 2].map(async () => (await login(t, admin.email, admin.password)).body.data.mfa_token as string),
    );
    const code = currentTotp(admin.secret, t.clock.now());
    const results = await Promise.all(challenges.map((c) => mfaVerify(t, c, code)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('lets the challenge expire after 5 minutes', async () => {
    const admin = await enrolledAdmin(t);
    const challenge = (await login(t, admin.email, admin.password)).body.data.mfa_token;
    t.clock.advance(301_000);
    expectStatus(await mfaVerify(t, challenge, currentTotp(admin.secret, t.clock.now())), 401, 'TOKEN_EXPIRED');
  });

  it('disables only with the password and a current code', async () => {
    const admin = await enrolledAdmin(t);
    const { token } = await mfaSignIn(t, admin);
    t.clock.advance(STEP);
    const code = currentTotp(admin.secret, t.clock.now());
    const disable = (body: object) => t.request('POST', '/accounts/mfa/totp/disable', { token, body });

    const badPassword = await disable({ password: 'wrongpass1', code });
    expect(badPassword.status).toBe(400);
    expect(badPassword.body.errors).toEqual([expect.objectContaining({ field: 'password' })]);
    const badCode = await disable({ password: admin.password, code: String((Number(code) + 1) % 1e6).padStart(6, '0') });
    expect(badCode.body.errors).toEqual([expect.objectContaining({ field: 'code' })]);
    const noCode = await disable({ password: admin.password });
    expect(noCode.status).toBe(400);
    expect(noCode.body.errors).toEqual([expect.objectContaining({ field: 'code' })]);
    expect((await t.request('GET', '/accounts/mfa/totp/status', { token })).body.data.enabled).toBe(true);

    const ok = await disable({ password: admin.password, code });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ enabled: false, pending: false });
    const next = await login(t, admin.email, admin.password);
    expect(next.body.data.mfa_required).toBeUndefined();
    expectStatus(await t.request('GET', '/admin/dashboard', { token: next.body.data.access_token }), 403, 'FORBIDDEN');
  });
});

describe('GET /admin/dashboard', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('counts organisations, stores, users and signups of the last 30 days', async () => {
    await registerOwner(t);
    const owner = await registerOwner(t);
    await createStaff(t, owner);
    await addStore(t, owner.orgId);
    t.clock.advance(31 * 86_400_000);
    await registerOwner(t);
    const admin = await enrolledAdmin(t);
    const { token } = await mfaSignIn(t, admin);

    const res = await t.request('GET', '/admin/dashboard', { token });
    expect(res.status).toBe(200);
    // 3 owners, 1 staff member, 1 admin; 3 first stores and a branch; only the last signup is recent.
    expect(res.body.data).toEqual({ organisations: 3, stores: 4, users: 5, signups_last_30_days: 1 });
  });
});

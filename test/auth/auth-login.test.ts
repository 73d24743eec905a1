import { Envelope, LoginResult } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, e164, PASSWORD, registerOwner, uniqueEmail, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/** Everything of an error answer a client can see, except the per-request id. */
const visible = (res: { status: number; body: any }) => ({
  status: res.status,
  success: res.body.success,
  message: res.body.message,
  data: res.body.data,
  errors: res.body.errors,
});

describe('POST /auth/login', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const login = (identifier: string, password: string, headers?: Record<string, string>) =>
    t.request('POST', '/auth/login', { body: { identifier, password }, ...(headers ? { headers } : {}) });

  it('signs in by email in any case and answers the token pair and the user', async () => {
    const s = await registerOwner(t);
    const res = await login(s.email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(200);
    const { data, message } = Envelope(LoginResult).parse(res.body);
    expect(message).toBe('signed in');
    expect(data).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 900,
      token_type: 'Bearer',
      user: { id: s.userId, first_name: 'Asha', last_name: 'Mushi', email: s.email, role: 'owner' },
    });
    if (!('access_token' in data)) throw new Error('expected tokens');
    const me = await t.request('GET', '/accounts/me', { token: data.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data.user.id).toBe(s.userId);
    expect(me.body.data.store.id).toBe(s.storeId);
  });

  it('signs in by phone in the local 0… form and the +255… form', async () => {
    const s = await registerOwner(t);
    expect(s.phone.startsWith('0')).toBe(true);
    for (const identifier of [s.phone, e164(s.phone)]) {
      const res = await login(identifier, PASSWORD);
      expect(res.status, identifier).toBe(200);
      expect(res.body.data.user.id).toBe(s.userId);
      const me = await t.request('GET', '/accounts/me', { token: res.body.data.access_token });
      expect(me.body.data.user.phone).toBe(e164(s.phone));
    }
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password, and exactly the same for an unknown account', async () => {
    const s = await registerOwner(t);
    const wrong = await login(s.email, 'wrongpass1');
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors).toEqual([{ code: 'INVALID_CREDENTIALS', message: 'email/phone or password is wrong' }]);
    expect(wrong.body.data).toBeNull();
    const unknownEmail = await login(uniqueEmail('ghost'), 'wrongpass1');
    const unknownPhone = await login(uniquePhone(), 'wrongpass1');
    expect(visible(unknownEmail)).toEqual(visible(wrong));
    expect(visible(unknownPhone)).toEqual(visible(wrong));
  });

  it('locks this address out of the account name after 5 wrong passwords: 423 ACCOUNT_LOCKED with Retry-After, even for the right password, for 15 minutes', async () => {
    const s = await registerOwner(t);
    // Counted per name as typed, in any case (an unknown name must count exactly as a real one does).
    const ids = [s.email, s.email.toUpperCase(), ` ${s.email}`, s.email];
    for (let i = 1; i <= 4; i++) {
      const res = await login(ids[i - 1]!, `wrongpass${i}`);
      expect(res.status, `failure ${i}`).toBe(401);
      expect(res.body.errors[0].code).toBe('INVALID_CREDENTIALS');
    }
    const fifth = await login(s.email, 'wrongpass5');
    expect(fifth.status).toBe(423);
    expect(fifth.body.errors[0].code).toBe('ACCOUNT_LOCKED');
    expect(fifth.headers.get('retry-after')).toBe('900');

    t.clock.advance(60_000);
    const rightWhileLocked = await login(s.email, PASSWORD);
    expect(rightWhileLocked.status).toBe(423);
    expect(rightWhileLocked.body.errors[0].code).toBe('ACCOUNT_LOCKED');
    expect(rightWhileLocked.headers.get('retry-after')).toBe('840');
    expect(rightWhileLocked.body.data).toBeNull();

    t.clock.advance(14 * 60_000 - 1_000);
    expect((await login(s.email, PASSWORD)).status).toBe(423);
    t.clock.advance(1_000);
    const after = await login(s.email, PASSWORD);
    expect(after.status).toBe(200);
    expect(after.body.data.user.id).toBe(s.userId);
  });

  it('starts counting again after a successful sign-in', async () => {
    const s = await registerOwner(t);
    for (let i = 0; i < 4; i++) expect((await login(s.email, 'wrongpass1')).status).toBe(401);
    expect((await login(s.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(s.email, 'wrongpass1')).status).toBe(401);
    expect((await login(s.email, PASSWORD)).status).toBe(200);
  });

  it('refuses a user the owner has deactivated, and their refresh token', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const del = await t.request('DELETE', `/accounts/users/${staff.user.id}`, { token: owner.token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');

    const res = await login(staff.phone, staff.password);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('FORBIDDEN');
    expect(res.body.data).toBeNull();
    const refresh = await t.request('POST', '/auth/refresh', { body: { refresh_token: staff.refresh } });
    expect(refresh.status).toBe(401);
    // The owner is unaffected.
    expect((await login(owner.email, PASSWORD)).status).toBe(200);
  });

  it('answers 400 naming the field when the identifier or password is missing', async () => {
    const res = await t.request('POST', '/auth/login', { body: { identifier: 'asha@duka.test' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'password' })]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeIn,
  e164,
  lastMessage,
  messageCount,
  PASSWORD,
  registerOwner,
  type Session,
  uniqueEmail,
  uniquePhone,
} from '../setup/factories.js';
import { createTestApp, type ApiResponse, type TestApp } from '../setup/test-app.js';

const NEW_PASSWORD = 'mpyaSana2026';
/** The raw answer with the per-request id blanked, so two answers can be compared byte for byte. */
const raw = (res: ApiResponse) => ({
  status: res.status,
  type: res.headers.get('content-type'),
  text: res.text.replace(/"request_id":"[^"]*"/g, '"request_id":""'),
});

describe('forgotten passwords', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const forgot = (identifier: string) => t.request('POST', '/auth/password/forgot', { body: { identifier } });
  const reset = (identifier: string, otp: string, new_password = NEW_PASSWORD, confirm_password = new_password) =>
    t.request('POST', '/auth/password/reset', { body: { identifier, otp, new_password, confirm_password } });
  const login = (identifier: string, password: string) => t.request('POST', '/auth/login', { body: { identifier, password } });
  const resetCode = async (s: Session) => {
    expect((await forgot(s.email)).status).toBe(200);
    const sms = await lastMessage(t, e164(s.phone));
    expect(sms).toMatchObject({ channel: 'sms', subject: 'Your Duka password reset code' });
    return codeIn(sms!.body);
  };
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('answers byte-identical bodies and statuses whether or not the account exists', async () => {
    const s = await registerOwner(t);
    const byEmail = await forgot(s.email);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toMatchObject({
      success: true,
      message: 'If an account matches, a reset code has been sent to its phone or email.',
      data: null,
    });
    expect(await messageCount(t, e164(s.phone))).toBe(1);

    const strangers = [await forgot(uniqueEmail('ghost')), await forgot(uniquePhone())];
    // Asked again within the minute (no new code is sent), and by phone: still the same answer.
    const knownAgain = [await forgot(s.phone), await forgot(e164(s.phone))];
    for (const res of [...strangers, ...knownAgain]) expect(raw(res)).toEqual(raw(byEmail));
    expect(await messageCount(t, e164(s.phone))).toBe(1);
  });

  it('resets with the SMS code: new password works, old fails, lockout lifted, every session signed out', async () => {
    const s = await registerOwner(t);
    const second = await login(s.phone, PASSWORD);
    expect(second.status).toBe(200);
    for (let i = 0; i < 5; i++) await login(s.email, 'wrongpass1');
    expect((await login(s.email, PASSWORD)).status).toBe(423);

    const code = await resetCode(s);
    const res = await reset(s.email, code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'password changed; sign in with the new password', data: null });

    const fresh = await login(s.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.user.id).toBe(s.userId);
    const old = await login(s.phone, PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body.errors[0].code).toBe('INVALID_CREDENTIALS');

    for (const refresh_token of [s.refresh, second.body.data.refresh_token]) {
      expect((await t.request('POST', '/auth/refresh', { body: { refresh_token } })).status).toBe(401);
    }
    // The code is used up.
    expect((await reset(s.email, code, 'anotherOne9')).status).toBe(401);
    expect((await login(s.email, 'anotherOne9')).status).toBe(401);
  });

  it('accepts the phone in either form as the identifier', async () => {
    const s = await registerOwner(t);
    const code = await resetCode(s);
    expect((await reset(e164(s.phone), code)).status).toBe(200);
    expect((await login(s.phone, NEW_PASSWORD)).status).toBe(200);
  });

  it('answers 401 for a wrong code and leaves the password unchanged', async () => {
    const s = await registerOwner(t);
    const code = await resetCode(s);
    const res = await reset(s.email, wrongCode(code));
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('INVALID_CREDENTIALS');
    expect((await login(s.email, NEW_PASSWORD)).status).toBe(401);
    expect((await login(s.email, PASSWORD)).status).toBe(200);
    // Refresh tokens survive a failed reset.
    expect((await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })).status).toBe(200);
  });

  it('answers 401 for an expired code and leaves the password unchanged', async () => {
    const s = await registerOwner(t);
    const code = await resetCode(s);
    t.clock.advance(10 * 60_000);
    const res = await reset(s.email, code);
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('INVALID_CREDENTIALS');
    expect((await login(s.email, NEW_PASSWORD)).status).toBe(401);
    expect((await login(s.email, PASSWORD)).status).toBe(200);
  });

  it('answers 401 for an account that asked for no code, and for an unknown account', async () => {
    const s = await registerOwner(t);
    expect((await reset(s.email, '123456')).status).toBe(401);
    expect((await reset(uniqueEmail('ghost'), '123456')).status).toBe(401);
    expect((await login(s.email, PASSWORD)).status).toBe(200);
  });

  it('answers 400 naming confirm_password when the passwords differ, and keeps the code usable', async () => {
    const s = await registerOwner(t);
    const code = await resetCode(s);
    const res = await reset(s.email, code, NEW_PASSWORD, 'somethingElse1');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'confirm_password', message: 'does not match new_password' }]);
    expect((await login(s.email, PASSWORD)).status).toBe(200);
    expect((await reset(s.email, code)).status).toBe(200);
  });

  it('refuses a weak new password by field', async () => {
    const s = await registerOwner(t);
    const code = await resetCode(s);
    const res = await reset(s.email, code, 'short');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('new_password');
  });
});

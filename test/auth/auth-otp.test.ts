import { Envelope, TokenPair } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn, e164, lastMessage, messageCount, PASSWORD, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('SMS one-time codes', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const send = (phone: string, purpose = 'login') => t.request('POST', '/auth/otp/send', { body: { phone, purpose } });
  const verify = (phone: string, code: string, purpose = 'login') =>
    t.request('POST', '/auth/otp/verify', { body: { phone, purpose, code } });
  /** Send a code and read it from the SMS outbox. */
  const codeFor = async (s: Session, purpose = 'login') => {
    const res = await send(s.phone, purpose);
    expect(res.status, res.text).toBe(200);
    return codeIn((await lastMessage(t, e164(s.phone)))!.body);
  };
  const expectInvalid = (res: { status: number; body: any }) => {
    expect(res.status).toBe(401);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].code).toBe('INVALID_CREDENTIALS');
  };

  it('signs in with a code sent by SMS; the pair works and the code is then used up', async () => {
    const s = await registerOwner(t);
    const res = await send(s.phone);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'if the number has an account, a code has been sent',
      data: null,
      errors: null,
      meta: null,
    });
    const sms = await lastMessage(t, e164(s.phone));
    expect(sms).toMatchObject({ channel: 'sms', subject: 'Your Duka sign-in code' });
    const code = codeIn(sms!.body);

    // Either phone form names the account.
    const ok = await verify(e164(s.phone), code);
    expect(ok.status).toBe(200);
    const { data } = Envelope(TokenPair).parse(ok.body);
    expect(data.expires_in).toBe(900);
    const me = await t.request('GET', '/accounts/me', { token: data.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data.user.id).toBe(s.userId);
    expect(me.body.data.store.id).toBe(s.storeId);
    expect((await t.request('POST', '/auth/refresh', { body: { refresh_token: data.refresh_token } })).status).toBe(200);

    expectInvalid(await verify(s.phone, code));
  });

  it('sends no second code within 60 s, answering exactly as for an unknown number; after that a new code works and the old one does not', async () => {
    const s = await registerOwner(t);
    const first = await codeFor(s);
    t.clock.advance(30_000);
    const early = await send(s.phone);
    const unknown = await send(uniquePhone());
    expect(early.status).toBe(200);
    expect(early.body).toEqual(unknown.body);
    expect(await messageCount(t, e164(s.phone))).toBe(1);

    t.clock.advance(30_000);
    const second = await codeFor(s);
    expect(await messageCount(t, e164(s.phone))).toBe(2);
    if (second !== first) expectInvalid(await verify(s.phone, first));
    expect((await verify(s.phone, second)).status).toBe(200);
  });

  it('lets a code work until 10 minutes have passed, and not after', async () => {
    const a = await registerOwner(t);
    const b = await registerOwner(t);
    const codeA = await codeFor(a);
    const codeB = await codeFor(b);
    t.clock.advance(10 * 60_000 - 1_000);
    expect((await verify(a.phone, codeA)).status).toBe(200);
    t.clock.advance(1_000);
    const late = await verify(b.phone, codeB);
    expectInvalid(late);
    expect(late.body.message).toMatch(/expired/);
  });

  it('allows 5 tries: after 5 wrong codes even the right one fails; after 4 the right one still works', async () => {
    const a = await registerOwner(t);
    const codeA = await codeFor(a);
    for (let i = 0; i < 5; i++) expectInvalid(await verify(a.phone, other(codeA)));
    const blocked = await verify(a.phone, codeA);
    expectInvalid(blocked);
    expect(blocked.body.message).toBe('code is wrong or has expired; request a new one');

    const b = await registerOwner(t);
    const codeB = await codeFor(b);
    for (let i = 0; i < 4; i++) expectInvalid(await verify(b.phone, other(codeB)));
    expect((await verify(b.phone, codeB)).status).toBe(200);
  });

  it('answers 400 naming `purpose` for purpose registration', async () => {
    const s = await registerOwner(t);
    for (const res of [await send(s.phone, 'registration'), await verify(s.phone, '123456', 'registration')]) {
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'purpose', message: 'must be login or reset' }]);
    }
    expect(await messageCount(t, e164(s.phone))).toBe(0);
  });

  it('answers an unknown phone exactly like a known one and sends nothing', async () => {
    const s = await registerOwner(t);
    const known = await send(s.phone);
    const stranger = uniquePhone();
    const unknown = await send(stranger);
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    expect(await messageCount(t, e164(stranger))).toBe(0);
    expect(await messageCount(t, e164(s.phone))).toBe(1);
    expectInvalid(await verify(stranger, '123456'));
  });

  it('stores only a hash of the code', async () => {
    const s = await registerOwner(t);
    const code = await codeFor(s);
    const rows = await t.db.db.selectFrom('otps').selectAll().where('user_id', '=', s.userId).execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.purpose).toBe('login');
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash.length).toBeGreaterThanOrEqual(32);
    expect(row.expires_at - row.created_at).toBe(10 * 60_000);
  });

  it('checks a reset code without using it: data null, then /auth/password/reset accepts it', async () => {
    const s = await registerOwner(t);
    const code = await codeFor(s, 'reset');
    expect((await lastMessage(t, e164(s.phone)))!.subject).toBe('Your Duka password reset code');
    // A reset code is not a sign-in code.
    expectInvalid(await verify(s.phone, code, 'login'));

    const checked = await verify(s.phone, code, 'reset');
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ success: true, data: null });
    expect((await verify(s.phone, code, 'reset')).status).toBe(200);

    const reset = await t.request('POST', '/auth/password/reset', {
      body: { identifier: s.phone, otp: code, new_password: 'mpyaSana2026', confirm_password: 'mpyaSana2026' },
    });
    expect(reset.status, reset.text).toBe(200);
    expect((await t.request('POST', '/auth/login', { body: { identifier: s.phone, password: 'mpyaSana2026' } })).status).toBe(200);
    expect((await t.request('POST', '/auth/login', { body: { identifier: s.phone, password: PASSWORD } })).status).toBe(401);
    // Used by the reset: gone.
    expectInvalid(await verify(s.phone, code, 'reset'));
  });
});

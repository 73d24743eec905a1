import { Envelope, TokenPair } from '@duka/shared';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/src/lib/auth/jwt.js';
import { createStaff, lastMessage, PASSWORD, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('access and refresh tokens', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const me = (token?: string, headers?: Record<string, string>) =>
    t.request('GET', '/accounts/me', { ...(token ? { token } : {}), ...(headers ? { headers } : {}) });
  const refresh = (refresh_token: string) => t.request('POST', '/auth/refresh', { body: { refresh_token } });
  const expect401 = (res: { status: number; body: any }, code = 'UNAUTHENTICATED') => {
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, data: null });
    expect(res.body.errors).toEqual([expect.objectContaining({ code })]);
  };

  it('carries sub, org, store, role, perms and amr in the access token', async () => {
    const s = await registerOwner(t);
    expect((await me(s.token)).status).toBe(200);
    const claims = decodeJwt(s.token);
    expect(claims).toMatchObject({
      sub: s.userId,
      org: s.orgId,
      store: s.storeId,
      role: 'owner',
      perms: ['refund', 'discount', 'reports', 'pharmacy', 'credit', 'stock', 'suppliers'],
      amr: ['pwd'],
      aud: 'duka-api',
    });
    expect(claims.exp! - claims.iat!).toBe(900);
  });

  it('answers 401 UNAUTHENTICATED without a token and for a malformed Authorization header', async () => {
    const s = await registerOwner(t);
    expect401(await me());
    for (const authorization of ['Token abc', 'Bearer', `Basic ${s.token}`, 'Bearer not-a-jwt', `Bearer ${s.token} extra`, s.token]) {
      expect401(await me(undefined, { authorization }));
    }
  });

  it('refuses a token whose payload was changed by one character', async () => {
    const s = await registerOwner(t);
    const [h, p, sig] = s.token.split('.') as [string, string, string];
    const i = Math.floor(p.length / 2);
    const tampered = `${h}.${p.slice(0, i)}${p[i] === 'A' ? 'B' : 'A'}${p.slice(i + 1)}.${sig}`;
    expect(tampered).not.toBe(s.token);
    expect401(await me(tampered));
    // A payload rewritten on purpose (owner → admin) with the original signature fails too.
    const forged = `${h}.${b64url({ ...decodeJwt(s.token), role: 'admin', amr: ['pwd', 'mfa'] })}.${sig}`;
    expect401(await me(forged));
    expect401(await t.request('GET', '/admin/dashboard', { token: forged }));
  });

  it('refuses an unsigned alg:none token carrying the real payload', async () => {
    const s = await registerOwner(t);
    const payload = s.token.split('.')[1];
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    expect401(await me(none));
  });

  it('refuses a token signed with another secret', async () => {
    const s = await registerOwner(t);
    const { iat, exp, ...claims } = decodeJwt(s.token);
    const other = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat!)
      .setExpirationTime(exp!)
      .sign(new TextEncoder().encode('another-secret-another-secret-0123456789'));
    expect401(await me(other));
  });

  it('refuses a token with the real key but no expiry, no issue time, another or no issuer, or no audience', async () => {
    const s = await registerOwner(t);
    const { iat, exp, aud, iss, ...claims } = decodeJwt(s.token);
    const key = t.deps.keys.jwt;
    const sign = (build: (j: SignJWT) => SignJWT) =>
      build(new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setAudience(aud!)).sign(key);
    // The same claims signed properly are accepted, so each refusal below is for what it lacks.
    expect((await me(await sign((j) => j.setIssuer(iss!).setIssuedAt(iat!).setExpirationTime(exp!)))).status).toBe(200);
    expect401(await me(await sign((j) => j.setIssuer(iss!).setIssuedAt(iat!))));
    expect401(await me(await sign((j) => j.setIssuer(iss!).setExpirationTime(exp!))));
    expect401(await me(await sign((j) => j.setIssuer('someone-else').setIssuedAt(iat!).setExpirationTime(exp!))));
    expect401(await me(await sign((j) => j.setIssuedAt(iat!).setExpirationTime(exp!))));
    const noAudience = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(iss!)
      .setIssuedAt(iat!)
      .setExpirationTime(exp!)
      .sign(key);
    expect401(await me(noAudience));
  });

  it('refuses an MFA challenge token and an email-confirmation token as access tokens', async () => {
    const s = await registerOwner(t);
    // Real key, every access claim, only the audience differs.
    const { iat, exp, aud, iss, ...claims } = decodeJwt(s.token);
    const mfa = await signToken(t.deps.keys.jwt, 'duka-mfa', claims, 300, t.clock.now());
    expect(decodeJwt(mfa).aud).toBe('duka-mfa');
    expect401(await me(mfa));
    const mail = await lastMessage(t, s.email);
    const emailToken = decodeURIComponent(mail!.body.match(/token=(\S+)/)![1]!);
    expect401(await me(emailToken));
  });

  it('answers 401 TOKEN_EXPIRED once the access token is past 900 s', async () => {
    const s = await registerOwner(t);
    t.clock.advance(899_000);
    expect((await me(s.token)).status).toBe(200);
    t.clock.advance(2_000);
    const res = await me(s.token);
    expect401(res, 'TOKEN_EXPIRED');
    // The refresh token still gives a working pair.
    const r = await refresh(s.refresh);
    expect(r.status).toBe(200);
    expect((await me(r.body.data.access_token)).status).toBe(200);
  });

  it('rotates the refresh token; reusing the old one revokes the whole family', async () => {
    const s = await registerOwner(t);
    const r1 = await refresh(s.refresh);
    expect(r1.status).toBe(200);
    const { data: pair, message } = Envelope(TokenPair).parse(r1.body);
    expect(message).toBe('tokens refreshed');
    expect(pair).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(pair.refresh_token).not.toBe(s.refresh);
    expect((await me(pair.access_token)).body.data.user.id).toBe(s.userId);
    expect(decodeJwt(pair.access_token)).toMatchObject({ sub: s.userId, amr: ['pwd'], sid: decodeJwt(s.token).sid });

    // Once its successor has been used, the old token is a replay: the whole family goes.
    const r2 = await refresh(pair.refresh_token);
    expect(r2.status).toBe(200);
    expect401(await refresh(s.refresh));
    expect401(await refresh(r2.body.data.refresh_token));
  });

  it('forgives a refresh whose answer was lost: the same token again within 30 s gets a new pair, the lost one is withdrawn', async () => {
    const s = await registerOwner(t);
    const lost = (await refresh(s.refresh)).body.data;
    t.clock.advance(5_000);
    const again = await refresh(s.refresh);
    expect(again.status, again.text).toBe(200);
    expect(decodeJwt(again.body.data.access_token).sid).toBe(decodeJwt(s.token).sid);
    expect401(await refresh(lost.refresh_token));
    // A second lost answer is forgiven the same way; the pair finally received works.
    const lostAgain = (await refresh(s.refresh)).body.data;
    void lostAgain;
    t.clock.advance(1_000);
    const got = await refresh(s.refresh);
    expect(got.status).toBe(200);
    const next = await refresh(got.body.data.refresh_token);
    expect(next.status).toBe(200);
    expect((await me(next.body.data.access_token)).status).toBe(200);
  });

  it('treats the same token after the grace period as a replay and revokes the family', async () => {
    const s = await registerOwner(t);
    const lost = (await refresh(s.refresh)).body.data;
    t.clock.advance(31_000);
    expect401(await refresh(s.refresh));
    expect401(await refresh(lost.refresh_token));
  });

  it('leaves other sign-ins alone when one family is revoked', async () => {
    const s = await registerOwner(t);
    const other = await t.request('POST', '/auth/login', { body: { identifier: s.email, password: PASSWORD } });
    const next = (await refresh(s.refresh)).body.data;
    await refresh(next.refresh_token);
    expect401(await refresh(s.refresh));
    expect((await refresh(other.body.data.refresh_token)).status).toBe(200);
  });

  it("answers 401 for an unknown refresh token, and SESSION_EXPIRED (not the access token's TOKEN_EXPIRED) for one older than 30 days", async () => {
    expect401(await refresh('x'.repeat(43)));
    const a = await registerOwner(t);
    const b = await registerOwner(t);
    t.clock.advance(30 * 86_400_000 - 60_000);
    expect((await refresh(b.refresh)).status).toBe(200);
    t.clock.advance(60_000);
    expect401(await refresh(a.refresh), 'SESSION_EXPIRED');
  });

  it('logout revokes the session’s refresh token, answers success every time, and spares other sessions', async () => {
    const s = await registerOwner(t);
    const other = await t.request('POST', '/auth/login', { body: { identifier: s.phone, password: PASSWORD } });
    const out = await t.request('POST', '/auth/logout', { token: s.token });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ success: true, message: 'signed out', data: null });
    expect401(await refresh(s.refresh));
    const again = await t.request('POST', '/auth/logout', { token: s.token, body: { refresh_token: s.refresh } });
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(true);
    expect((await refresh(other.body.data.refresh_token)).status).toBe(200);
  });

  it('logout also revokes a refresh token of the caller given in the body', async () => {
    const s = await registerOwner(t);
    const second = await t.request('POST', '/auth/login', { body: { identifier: s.email, password: PASSWORD } });
    const out = await t.request('POST', '/auth/logout', { token: s.token, body: { refresh_token: second.body.data.refresh_token } });
    expect(out.status).toBe(200);
    expect401(await refresh(second.body.data.refresh_token));
    expect401(await t.request('POST', '/auth/logout', {}));
  });

  it('puts a permission change into the access token at the next refresh', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    expect(decodeJwt(staff.token)).toMatchObject({ role: 'staff', perms: [] });
    await t.db.db.updateTable('users').set({ can_refund: 1, can_view_reports: 1 }).where('id', '=', staff.user.id).execute();
    // The token already issued does not change.
    expect(decodeJwt(staff.token).perms).toEqual([]);
    const r = await refresh(staff.refresh);
    expect(r.status).toBe(200);
    expect(decodeJwt(r.body.data.access_token)).toMatchObject({
      sub: staff.user.id,
      role: 'staff',
      perms: ['refund', 'reports'],
      store: owner.storeId,
    });
  });
});

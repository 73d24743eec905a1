/** A signed-out session's access token stops working at once, not when it expires 15 minutes later. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, PASSWORD, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sessions end at once', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());
  const me = (token: string) => t.request('GET', '/accounts/me', { token });
  const signedOut = async (token: string) => {
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({ code: 'UNAUTHENTICATED', message: 'this session has been signed out; sign in again' });
  };

  it('logout: the access token is refused at once; logging out again still answers success', async () => {
    const s = await registerOwner(t);
    expect((await me(s.token)).status).toBe(200);
    expect((await t.request('POST', '/auth/logout', { token: s.token })).status).toBe(200);
    await signedOut(s.token);
    expect((await t.request('POST', '/auth/logout', { token: s.token })).status).toBe(200);
  });

  it('a deactivated staff member is refused at once', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    expect((await me(staff.token)).status).toBe(200);
    const res = await t.request('PATCH', `/staff/${staff.user.id}`, { token: owner.token, body: { employment_status: 'inactive' } });
    expect(res.status, res.text).toBe(200);
    await signedOut(staff.token);
    expect((await me(owner.token)).status).toBe(200);
  });

  it('a password change signs out the other sessions, not the one that changed it', async () => {
    const s = await registerOwner(t);
    const other = (await t.request('POST', '/auth/login', { body: { identifier: s.phone, password: PASSWORD } })).body.data
      .access_token as string;
    expect((await me(other)).status).toBe(200);
    const res = await t.request('PATCH', '/accounts/me', { token: s.token, body: { password: 'mwanza2027', current_password: PASSWORD } });
    expect(res.status, res.text).toBe(200);
    await signedOut(other);
    expect((await me(s.token)).status).toBe(200);
  });

  it('a copied refresh token presented after its successor was used signs the whole session out', async () => {
    const s = await registerOwner(t);
    const refresh = (token: string) => t.request('POST', '/auth/refresh', { body: { refresh_token: token } });
    const next = (await refresh(s.refresh)).body.data;
    expect((await refresh(next.refresh_token)).status).toBe(200);
    expect((await refresh(s.refresh)).status).toBe(401);
    await signedOut(next.access_token);
    await signedOut(s.token);
  });
});

import { Envelope, StaffPasswordReset } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, e164, lastMessage, messageCount, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('POST /staff/{id}/reset-password', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const reset = (token: string, id: string) => t.request('POST', `/staff/${id}/reset-password`, { token });
  const login = (identifier: string, password: string) => t.request('POST', '/auth/login', { body: { identifier, password } });
  const refresh = (token: string) => t.request('POST', '/auth/refresh', { body: { refresh_token: token } });

  it('texts a new temporary password, signs the member out everywhere and makes the next sign-in set a new one', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const sent = await messageCount(t, e164(staff.phone));

    const res = await reset(owner.token, staff.user.id);
    expect(res.status, res.text).toBe(200);
    expect(Envelope(StaffPasswordReset).parse(res.body).data).toEqual({ password_reset: true });

    expect(await messageCount(t, e164(staff.phone))).toBe(sent + 1);
    const sms = (await lastMessage(t, e164(staff.phone)))!;
    const temporary = sms.body.match(/temporary password (\S+),/)![1]!;
    expect(temporary).not.toBe(staff.temporaryPassword);
    expect(res.text).not.toContain(temporary);

    // Signed out: the old session's refresh token is refused; the old password no longer signs in.
    expect((await refresh(staff.refresh)).status).toBe(401);
    expect((await login(staff.phone, staff.password)).status).toBe(401);
    const signedIn = await login(staff.phone, temporary);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.data.user.password_change_required).toBe(true);
    // That session may only set a new password.
    const token = signedIn.body.data.access_token as string;
    expect((await t.request('GET', '/pos/transactions', { token })).status).toBe(403);
    expect((await t.request('PATCH', '/accounts/me', { token, body: { password: 'Another-pass-2026' } })).status).toBe(200);
    expect((await t.request('GET', '/pos/transactions', { token })).status).toBe(200);

    const audit = await t.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.password_reset')
      .where('entity_id', '=', staff.user.id)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('is the owner’s alone, for their own organisation’s staff, and not for a deactivated member', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const manager = await createStaff(t, owner, { role: 'manager' });
    expect((await reset(manager.token, staff.user.id)).status).toBe(403);
    expect((await reset(staff.token, staff.user.id)).status).toBe(403);

    const other = await registerOwner(t);
    expect((await reset(other.token, staff.user.id)).status).toBe(404);
    expect((await reset(owner.token, owner.userId)).status).toBe(404);

    expect((await t.request('DELETE', `/staff/${staff.user.id}`, { token: owner.token })).status).toBe(200);
    const gone = await reset(owner.token, staff.user.id);
    expect(gone.status).toBe(409);
    expect(gone.body.errors[0].code).toBe('INVALID_STATE');
  });
});

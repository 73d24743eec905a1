import { Envelope, Profile } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, lastMessage, messageCount, registerOwner, uniqueEmail, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('/accounts/me', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const me = (token: string) => t.request('GET', '/accounts/me', { token });
  const login = (identifier: string, password: string) => t.request('POST', '/auth/login', { body: { identifier, password } });
  const refresh = (refresh_token: string) => t.request('POST', '/auth/refresh', { body: { refresh_token } });
  const ids = (stores: Array<{ id: string }>) => stores.map((s) => s.id).sort();

  /** Follow the link in the newest email to `email`, so that the address counts as confirmed. */
  async function confirmEmail(email: string) {
    const link = (await lastMessage(t, email))!.body.match(/\/api\/v1(\/auth\/confirm-email\?token=\S+)/)![1]!;
    const res = await t.request('GET', link);
    expect(res.headers.get('location')).toMatch(/verified=1$/);
  }

  it('shows the owner with organisation, active store and every active store', async () => {
    const owner = await registerOwner(t, { first_name: 'Neema', last_name: 'Kimaro' });
    const second = await addStore(t, owner.orgId, 'Kariakoo Branch');
    const closed = await addStore(t, owner.orgId, 'Old Branch');
    await t.db.db.updateTable('stores').set({ is_active: 0 }).where('id', '=', closed.id).execute();

    const res = await me(owner.token);
    expect(res.status).toBe(200);
    const { data } = Envelope(Profile).parse(res.body);
    expect(data.user).toMatchObject({
      id: owner.userId,
      first_name: 'Neema',
      last_name: 'Kimaro',
      role: 'owner',
      store_id: owner.storeId,
      is_active: true,
      email_verified: false,
    });
    expect(data.organisation?.id).toBe(owner.orgId);
    expect(data.store?.id).toBe(owner.storeId);
    expect(ids(data.stores)).toEqual([owner.storeId, second.id].sort());
  });

  it('shows staff only the store they are assigned to', async () => {
    const owner = await registerOwner(t);
    const second = await addStore(t, owner.orgId);
    const staff = await createStaff(t, owner, { store_id: second.id });

    const res = await me(staff.token);
    expect(res.status).toBe(200);
    const { data } = Envelope(Profile).parse(res.body);
    expect(data.user).toMatchObject({ id: staff.user.id, role: 'staff', store_id: second.id });
    expect(data.organisation?.id).toBe(owner.orgId);
    expect(data.store?.id).toBe(second.id);
    expect(ids(data.stores)).toEqual([second.id]);
  });

  it('updates names and occupation', async () => {
    const owner = await registerOwner(t);
    const res = await t.request('PATCH', '/accounts/me', {
      token: owner.token,
      body: { first_name: ' Zawadi ', last_name: 'Mwakyusa', occupation: 'Pharmacist' },
    });
    expect(res.status).toBe(200);
    const { data } = Envelope(Profile).parse(res.body);
    expect(data.user).toMatchObject({ first_name: 'Zawadi', last_name: 'Mwakyusa', occupation: 'Pharmacist', email: owner.email });
    expect((await me(owner.token)).body.data.user).toMatchObject({ first_name: 'Zawadi', last_name: 'Mwakyusa', occupation: 'Pharmacist' });
  });

  it("refuses another account's email with 409 DUPLICATE and changes nothing", async () => {
    const other = await registerOwner(t);
    const owner = await registerOwner(t, { first_name: 'Baraka' });
    const mails = await messageCount(t, other.email);

    const res = await t.request('PATCH', '/accounts/me', {
      token: owner.token,
      body: { first_name: 'Changed', email: other.email.toUpperCase() },
    });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'DUPLICATE', field: 'email' })]);
    expect((await me(owner.token)).body.data.user).toMatchObject({ first_name: 'Baraka', email: owner.email });
    expect(await messageCount(t, other.email)).toBe(mails);
  });

  it('a new email must be confirmed again: email_verified resets and a confirmation email goes to the new address', async () => {
    const owner = await registerOwner(t);
    await confirmEmail(owner.email);
    expect((await me(owner.token)).body.data.user.email_verified).toBe(true);

    const fresh = uniqueEmail('new');
    const res = await t.request('PATCH', '/accounts/me', { token: owner.token, body: { email: fresh.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(Envelope(Profile).parse(res.body).data.user).toMatchObject({ email: fresh, email_verified: false });

    const mail = await lastMessage(t, fresh);
    expect(mail).toMatchObject({ channel: 'email', subject: 'Confirm your email for Duka' });
    expect(mail!.body).toContain('/api/v1/auth/confirm-email?token=');
    await confirmEmail(fresh);
    expect((await me(owner.token)).body.data.user).toMatchObject({ email: fresh, email_verified: true });
  });

  it('keeps email_verified and sends nothing when the email is unchanged', async () => {
    const owner = await registerOwner(t);
    await confirmEmail(owner.email);
    const mails = await messageCount(t, owner.email);
    const res = await t.request('PATCH', '/accounts/me', { token: owner.token, body: { email: owner.email } });
    expect(res.status).toBe(200);
    expect(res.body.data.user.email_verified).toBe(true);
    expect(await messageCount(t, owner.email)).toBe(mails);
  });

  describe('password change', () => {
    let owner: Session;
    let other: { token: string; refresh: string };
    const NEW_PASSWORD = 'mwanza2027x';

    beforeAll(async () => {
      owner = await registerOwner(t);
      const second = await login(owner.phone, owner.password);
      expect(second.status).toBe(200);
      other = { token: second.body.data.access_token, refresh: second.body.data.refresh_token };
      const res = await t.request('PATCH', '/accounts/me', {
        token: owner.token,
        body: { password: NEW_PASSWORD, current_password: owner.password },
      });
      expect(res.status, res.text).toBe(200);
    });

    it('signs in with the new password only', async () => {
      const old = await login(owner.email, owner.password);
      expect(old.status).toBe(401);
      expect(old.body.errors[0].code).toBe('INVALID_CREDENTIALS');
      const fresh = await login(owner.email, NEW_PASSWORD);
      expect(fresh.status).toBe(200);
      expect(fresh.body.data.user.id).toBe(owner.userId);
    });

    it("revokes the other sessions' refresh tokens", async () => {
      const res = await refresh(other.refresh);
      expect(res.status).toBe(401);
      expect(res.body.errors[0].code).toBe('UNAUTHENTICATED');
    });

    it("keeps the current session's refresh token working", async () => {
      const res = await refresh(owner.refresh);
      expect(res.status).toBe(200);
      expect((await me(res.body.data.access_token)).body.data.user.id).toBe(owner.userId);
    });
  });

  it('refuses a wrong current_password (400 naming it) and keeps the old password', async () => {
    const owner = await registerOwner(t);
    const res = await t.request('PATCH', '/accounts/me', {
      token: owner.token,
      body: { password: 'another2026', current_password: 'not-my-password1' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'current_password' })]);
    expect((await login(owner.phone, owner.password)).status).toBe(200);
    expect((await login(owner.phone, 'another2026')).status).toBe(401);
    expect((await refresh(owner.refresh)).status).toBe(200);
  });

  it('refuses a weak password (400 naming password)', async () => {
    const owner = await registerOwner(t);
    for (const password of ['short1', 'onlyletters', '12345678']) {
      const res = await t.request('PATCH', '/accounts/me', { token: owner.token, body: { password, current_password: owner.password } });
      expect(res.status, password).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'password' })]);
    }
    expect((await login(owner.phone, owner.password)).status).toBe(200);
  });

  // No token, or one that is not a token: test/api/access-rules.test.ts.
});

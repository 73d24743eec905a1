import { randomUUID } from 'node:crypto';
import { Envelope, User } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addStore,
  createStaff,
  e164,
  lastMessage,
  messageCount,
  registerOwner,
  uniqueEmail,
  uniquePhone,
  type Session,
} from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('/accounts/users', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const list = (s: { token: string }) => t.request('GET', '/accounts/users', { token: s.token });
  const create = (s: { token: string }, body: Record<string, unknown>) =>
    t.request('POST', '/accounts/users', {
      token: s.token,
      body: { first_name: 'Rehema', last_name: 'Said', phone: uniquePhone(), ...body },
    });
  const remove = (s: { token: string }, id: string) => t.request('DELETE', `/accounts/users/${id}`, { token: s.token });
  const login = (identifier: string, password: string) => t.request('POST', '/auth/login', { body: { identifier, password } });
  const userCount = async () => (await t.db.db.selectFrom('users').select('id').execute()).length;
  const temporaryPassword = (body: string | undefined) => body!.match(/temporary password (\S+),/)![1]!;

  it("lists the organisation's users only", async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const other = await registerOwner(t);
    const otherStaff = await createStaff(t, other);

    const res = await list(owner);
    expect(res.status).toBe(200);
    const { data } = Envelope(User.array()).parse(res.body);
    expect(data.map((u) => u.id).sort()).toEqual([owner.userId, staff.user.id].sort());
    expect(data.find((u) => u.id === owner.userId)).toMatchObject({ role: 'owner', is_active: true });
    expect(data.map((u) => u.id)).not.toContain(otherStaff.user.id);
    expect(data.map((u) => u.id)).not.toContain(other.userId);
  });

  it('creates a user, texts a temporary password to the E.164 phone, and that password signs in', async () => {
    const owner = await registerOwner(t);
    const phone = uniquePhone();
    const email = uniqueEmail('cashier');
    const res = await create(owner, { first_name: 'Rehema', last_name: 'Said', phone, email: email.toUpperCase(), role: 'staff' });
    expect(res.status).toBe(200);
    const { data: user } = Envelope(User).parse(res.body);
    expect(user).toMatchObject({
      first_name: 'Rehema',
      last_name: 'Said',
      phone: e164(phone),
      email,
      role: 'staff',
      store_id: owner.storeId,
      is_active: true,
      employment_status: 'active',
    });

    const sms = await lastMessage(t, e164(phone));
    expect(sms).toMatchObject({ channel: 'sms' });
    const password = temporaryPassword(sms!.body);
    expect(password.length).toBeGreaterThanOrEqual(8);
    expect(res.text).not.toContain(password);
    expect(res.body.data).not.toHaveProperty('password_hash');

    for (const identifier of [phone, e164(phone), email]) {
      const signIn = await login(identifier, password);
      expect(signIn.status, identifier).toBe(200);
      expect(signIn.body.data.user).toMatchObject({ id: user.id, role: 'staff' });
    }
    expect((await list(owner)).body.data.map((u: { id: string }) => u.id)).toContain(user.id);
  });

  it('defaults permission flags from the role; explicit flags win', async () => {
    const owner = await registerOwner(t);
    const cases = [
      [{ role: 'manager' }, { can_refund: true, can_discount: true, can_view_reports: true, can_manage_pharmacy: true }],
      [{ role: 'staff' }, { can_refund: false, can_discount: false, can_view_reports: false, can_manage_pharmacy: false }],
      [
        { role: 'manager', can_refund: false },
        { can_refund: false, can_discount: true, can_view_reports: true, can_manage_pharmacy: true },
      ],
      [
        { role: 'staff', can_discount: true, can_view_reports: true },
        { can_refund: false, can_discount: true, can_view_reports: true },
      ],
    ] as const;
    for (const [input, flags] of cases) {
      const res = await create(owner, input);
      expect(res.status, JSON.stringify(input)).toBe(200);
      expect(res.body.data, JSON.stringify(input)).toMatchObject({ role: input.role, ...flags });
    }
  });

  it('assigns the given store of the organisation', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId);
    const res = await create(owner, { store_id: branch.id });
    expect(res.status).toBe(200);
    expect(res.body.data.store_id).toBe(branch.id);
  });

  it("answers 404 for an unknown store or another organisation's store, creating nobody and texting nobody", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const before = await userCount();
    for (const store_id of [randomUUID(), other.storeId]) {
      const phone = uniquePhone();
      const res = await create(owner, { phone, store_id });
      expect(res.status, store_id).toBe(404);
      expect(res.body.errors[0].code).toBe('NOT_FOUND');
      expect(await messageCount(t, e164(phone))).toBe(0);
    }
    expect(await userCount()).toBe(before);
  });

  it('answers 409 DUPLICATE naming phone for a phone already in use (either form)', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const before = await userCount();
    for (const phone of [staff.phone, e164(owner.phone)]) {
      const sms = await messageCount(t, e164(phone));
      const res = await create(owner, { phone });
      expect(res.status, phone).toBe(409);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'DUPLICATE', field: 'phone' })]);
      expect(await messageCount(t, e164(phone))).toBe(sms);
    }
    expect(await userCount()).toBe(before);
    expect((await login(staff.phone, staff.password)).status).toBe(200);
  });

  describe('DELETE /accounts/users/:id', () => {
    let owner: Session;
    let staff: Awaited<ReturnType<typeof createStaff>>;
    let res: Awaited<ReturnType<TestApp['request']>>;

    beforeAll(async () => {
      owner = await registerOwner(t);
      staff = await createStaff(t, owner);
      res = await remove(owner, staff.user.id);
    });

    it('answers 204 with an empty body', () => {
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    });

    it('stops the user signing in (403) and refreshing (401)', async () => {
      const signIn = await login(staff.phone, staff.password);
      expect(signIn.status).toBe(403);
      expect(signIn.body.errors[0].code).toBe('FORBIDDEN');
      const refresh = await t.request('POST', '/auth/refresh', { body: { refresh_token: staff.refresh } });
      expect(refresh.status).toBe(401);
    });

    it('still lists the user, with is_active false', async () => {
      const listed = (await list(owner)).body.data.find((u: { id: string }) => u.id === staff.user.id);
      expect(listed).toMatchObject({ is_active: false, employment_status: 'inactive' });
    });
  });

  // Another organisation's staff member or owner (404, nothing changed): test/api/access-rules.test.ts.
  it('refuses to deactivate yourself (409 INVALID_STATE)', async () => {
    const owner = await registerOwner(t);
    const res = await remove(owner, owner.userId);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].code).toBe('INVALID_STATE');
    expect((await login(owner.phone, owner.password)).status).toBe(200);
  });

  it('answers 400 naming id for an id that is not a uuid', async () => {
    const owner = await registerOwner(t);
    const res = await remove(owner, 'not-a-uuid');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'id' })]);
  });

  // For the owner only (staff and managers 403, nothing written): test/api/access-rules.test.ts.
});

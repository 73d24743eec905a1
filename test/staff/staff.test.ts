import { randomUUID } from 'node:crypto';
import { Envelope, PageMeta, StaffDeactivated, StaffList, StaffMember } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySecret } from '../../server/src/lib/crypto.js';
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

describe('/staff', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  type Who = { token: string };
  const add = (s: Who, body: Record<string, unknown> = {}) =>
    t.request('POST', '/staff', { token: s.token, body: { first_name: 'Rehema', last_name: 'Said', phone: uniquePhone(), ...body } });
  const patch = (s: Who, path: string, body: Record<string, unknown>) => t.request('PATCH', path, { token: s.token, body });
  const get = (s: Who, path: string) => t.request('GET', path, { token: s.token });
  const row = (id: string) => t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const userCount = async () => (await t.db.db.selectFrom('users').select('id').execute()).length;
  const login = (identifier: string, password: string) => t.request('POST', '/auth/login', { body: { identifier, password } });
  const refresh = (token: string) => t.request('POST', '/auth/refresh', { body: { refresh_token: token } });
  const perms = (access: string) => JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()).perms as string[];
  const audits = (action: string, entityId: string) =>
    t.db.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('entity_id', '=', entityId).execute();

  it('POST creates a staff record with every field, texts a temporary password and keeps only a hash of the PIN', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId);
    const phone = uniquePhone();
    const email = uniqueEmail('staff');
    const res = await add(owner, {
      phone,
      email,
      role: 'manager',
      store_id: branch.id,
      shift: 'evening',
      employment_status: 'on_leave',
      avatar_hue: 210,
      pin: '4821',
      can_refund: false,
      can_discount: true,
      can_view_reports: false,
    });
    expect(res.status, res.text).toBe(200);
    const { data } = Envelope(StaffMember).parse(res.body);
    expect(data).toMatchObject({
      first_name: 'Rehema',
      last_name: 'Said',
      phone: e164(phone),
      email,
      role: 'manager',
      store_id: branch.id,
      shift: 'evening',
      employment_status: 'on_leave',
      avatar_hue: 210,
      can_refund: false,
      can_discount: true,
      can_view_reports: false,
      is_active: true,
    });
    expect(res.text).not.toContain('4821');
    expect(res.body.data).not.toHaveProperty('pin');
    expect(res.body.data).not.toHaveProperty('pin_hash');
    const stored = await row(data.id);
    expect(stored.pin_hash).not.toContain('4821');
    expect(await verifySecret('4821', stored.pin_hash!)).toBe(true);
    const password = (await lastMessage(t, e164(phone)))!.body.match(/temporary password (\S+),/)![1]!;
    expect((await login(phone, password)).status).toBe(200);
    expect(await audits('user.create', data.id)).toHaveLength(1);

    const plain = await add(owner);
    expect(plain.body.data).toMatchObject({
      role: 'staff',
      store_id: owner.storeId,
      employment_status: 'active',
      shift: null,
      can_refund: false,
      can_discount: false,
    });
    expect((await row(plain.body.data.id)).pin_hash).toBeNull();
  });

  it.each([
    ['pin', { pin: '12ab' }],
    ['pin', { pin: '123' }],
    ['avatar_hue', { avatar_hue: 400 }],
    ['role', { role: 'owner' }],
    ['employment_status', { employment_status: 'inactive' }],
    ['shift', { shift: 'night' }],
    ['first_name', { first_name: '' }],
  ])('POST answers 400 naming %s for %j, writing and texting nothing', async (field, body) => {
    const owner = await registerOwner(t);
    const before = await userCount();
    const phone = uniquePhone();
    const res = await add(owner, { phone, ...body });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field })]);
    expect(await userCount()).toBe(before);
    expect(await messageCount(t, e164(phone))).toBe(0);
  });

  it("POST answers 404 for another organisation's store and 409 DUPLICATE for a phone in use", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const before = await userCount();
    expect((await add(owner, { store_id: other.storeId })).status).toBe(404);
    const dup = await add(owner, { phone: e164(other.phone) });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([expect.objectContaining({ code: 'DUPLICATE', field: 'phone' })]);
    expect(await userCount()).toBe(before);
  });

  it('GET /staff/:id answers the record; an owner, an unknown id and a non-uuid do not', async () => {
    const owner = await registerOwner(t);
    const staff = (await add(owner)).body.data;
    const res = await get(owner, `/staff/${staff.id}`);
    expect(res.status).toBe(200);
    expect(Envelope(StaffMember).parse(res.body).data).toEqual(staff);
    for (const id of [owner.userId, randomUUID()]) expect((await get(owner, `/staff/${id}`)).status, id).toBe(404);
    const bad = await get(owner, '/staff/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('id');
  });

  it('PATCH updates any create field, re-hashes a new PIN and audits the change', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId);
    const staff = (await add(owner, { pin: '1111' })).body.data;
    const phone = uniquePhone();
    const email = uniqueEmail('new');
    const res = await patch(owner, `/staff/${staff.id}`, {
      first_name: 'Neema',
      last_name: 'Mollel',
      phone,
      email,
      role: 'manager',
      store_id: branch.id,
      shift: 'weekend',
      avatar_hue: 0,
      pin: '987654',
      can_refund: true,
    });
    expect(res.status, res.text).toBe(200);
    expect(Envelope(StaffMember).parse(res.body).data).toMatchObject({
      id: staff.id,
      first_name: 'Neema',
      last_name: 'Mollel',
      phone: e164(phone),
      email,
      role: 'manager',
      store_id: branch.id,
      shift: 'weekend',
      avatar_hue: 0,
      can_refund: true,
    });
    const stored = await row(staff.id);
    expect(await verifySecret('987654', stored.pin_hash!)).toBe(true);
    expect(await verifySecret('1111', stored.pin_hash!)).toBe(false);
    const [audit] = await audits('staff.update', staff.id);
    expect(audit).toMatchObject({ user_id: owner.userId, org_id: owner.orgId });
    expect(audit!.description).not.toContain('987654');

    const cleared = await patch(owner, `/staff/${staff.id}`, { email: null, shift: null, pin: null });
    expect(cleared.body.data).toMatchObject({ email: null, shift: null });
    expect((await row(staff.id)).pin_hash).toBeNull();
  });

  it('PATCH answers 409 DUPLICATE naming the field, 404 for a foreign store and 400 for a bad PIN, changing nothing', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const taken = (await add(owner, { email: uniqueEmail('taken') })).body.data;
    const staff = (await add(owner)).body.data;
    const path = `/staff/${staff.id}`;
    const before = await row(staff.id);
    for (const [field, body] of [
      ['phone', { phone: taken.phone }],
      ['phone', { phone: other.phone }],
      ['email', { email: taken.email.toUpperCase() }],
    ] as const) {
      const res = await patch(owner, path, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'DUPLICATE', field })]);
    }
    expect((await patch(owner, path, { store_id: other.storeId })).status).toBe(404);
    const bad = await patch(owner, path, { pin: '12ab', first_name: 'Changed' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'pin' })]);
    expect(await row(staff.id)).toEqual(before);
  });

  it('DELETE deactivates: data.deactivated, signed out, cannot sign in, still listed as inactive', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const res = await t.request('DELETE', `/staff/${staff.user.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(Envelope(StaffDeactivated).parse(res.body).data).toEqual({ deactivated: true });
    expect((await refresh(staff.refresh)).status).toBe(401);
    expect((await login(staff.phone, staff.password)).status).toBe(403);
    expect((await get(owner, `/staff/${staff.user.id}`)).body.data).toMatchObject({ is_active: false, employment_status: 'inactive' });
    expect(await audits('user.deactivate', staff.user.id)).toHaveLength(1);
  });

  it('PATCH /shift sets shift and status; inactive deactivates and active gives the account back', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const path = `/staff/${staff.user.id}/shift`;
    const res = await patch(owner, path, { shift: 'morning', employment_status: 'on_leave' });
    expect(res.status).toBe(200);
    expect(Envelope(StaffMember).parse(res.body).data).toMatchObject({ shift: 'morning', employment_status: 'on_leave', is_active: true });
    expect(await audits('staff.shift', staff.user.id)).toHaveLength(1);

    expect((await patch(owner, path, { employment_status: 'inactive' })).body.data).toMatchObject({
      employment_status: 'inactive',
      is_active: false,
    });
    expect((await refresh(staff.refresh)).status).toBe(401);
    expect((await login(staff.phone, staff.password)).status).toBe(403);
    expect((await patch(owner, path, { employment_status: 'active' })).body.data).toMatchObject({
      employment_status: 'active',
      is_active: true,
    });
    expect((await login(staff.phone, staff.password)).status).toBe(200);
    expect((await patch(owner, path, { employment_status: 'retired' })).body.errors[0].field).toBe('employment_status');
  });

  it('PATCH /permissions answers the record; the flags reach the access token at the next refresh', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    expect(perms(staff.token)).toEqual([]);
    const res = await patch(owner, `/staff/${staff.user.id}/permissions`, { can_refund: true, can_view_reports: true });
    expect(res.status).toBe(200);
    expect(Envelope(StaffMember).parse(res.body).data).toMatchObject({
      can_refund: true,
      can_discount: false,
      can_view_reports: true,
      can_manage_pharmacy: false,
    });
    const next = await refresh(staff.refresh);
    expect(next.status).toBe(200);
    expect(perms(next.body.data.access_token).sort()).toEqual(['refund', 'reports']);

    await patch(owner, `/staff/${staff.user.id}/permissions`, {
      can_refund: false,
      can_view_reports: false,
      can_discount: true,
      can_manage_pharmacy: true,
    });
    const after = await refresh(next.body.data.refresh_token);
    expect(perms(after.body.data.access_token)).toEqual(['discount', 'pharmacy']);
    expect((await patch(owner, `/staff/${staff.user.id}/permissions`, { can_refund: 'yes' })).body.errors[0].field).toBe('can_refund');
  });

  // No token, staff or a manager, another organisation's staff member: test/api/access-rules.test.ts.
  describe('GET /staff', () => {
    let owner: Session;
    const people: Record<string, { id: string; phone: string }> = {};
    const ids = async (query: string) => {
      const res = await get(owner, `/staff${query}`);
      expect(res.status, res.text).toBe(200);
      return { data: Envelope(StaffList).parse({ ...res.body, meta: null }).data, meta: PageMeta.parse(res.body.meta) };
    };
    const names = async (query: string) => (await ids(query)).data.items.map((u) => u.first_name);

    beforeAll(async () => {
      owner = await registerOwner(t);
      const other = await registerOwner(t);
      await add(other, { first_name: 'Baraka', last_name: 'Outsider' });
      const rows = [
        ['Zawadi', 'Kimaro', 'staff', 'morning', 'active'],
        ['baraka', 'Mwita', 'manager', 'evening', 'active'],
        ['Amina', 'Juma', 'staff', 'evening', 'on_leave'],
        ['Daudi', 'Baraka', 'staff', 'full_day', 'active'],
      ] as const;
      for (const [first_name, last_name, role, shift, employment_status] of rows) {
        t.clock.advance(1000);
        const phone = uniquePhone();
        const res = await add(owner, { first_name, last_name, role, shift, employment_status, phone });
        people[first_name] = { id: res.body.data.id, phone };
      }
    });

    it('lists staff and managers of the organisation only, by name by default, with the total', async () => {
      const { data, meta } = await ids('');
      expect(data.items.map((u) => u.first_name)).toEqual(['Amina', 'baraka', 'Daudi', 'Zawadi']);
      expect(data.total).toBe(4);
      expect(meta).toEqual({ page: 1, page_size: 20, total: 4, total_pages: 1 });
      expect(data.items.every((u) => u.stats === undefined)).toBe(true);
    });

    it('orders by -name, created_at and -created_at', async () => {
      expect(await names('?ordering=-name')).toEqual(['Zawadi', 'Daudi', 'baraka', 'Amina']);
      expect(await names('?ordering=created_at')).toEqual(['Zawadi', 'baraka', 'Amina', 'Daudi']);
      expect(await names('?ordering=-created_at')).toEqual(['Daudi', 'Amina', 'baraka', 'Zawadi']);
      expect((await get(owner, '/staff?ordering=salary')).body.errors[0].field).toBe('ordering');
    });

    it('pages with size, keeping the total; size above 100 is clamped', async () => {
      const second = await ids('?ordering=created_at&size=3&page=2');
      expect(second.data.items.map((u) => u.first_name)).toEqual(['Daudi']);
      expect(second.data.total).toBe(4);
      expect(second.meta).toEqual({ page: 2, page_size: 3, total: 4, total_pages: 2 });
      expect((await ids('?size=500')).meta.page_size).toBe(100);
      expect((await ids('?page=9')).data).toEqual({ items: [], total: 4 });
      expect((await get(owner, '/staff?size=0')).body.errors[0].field).toBe('size');
    });

    it('searches first and last names in any case, and phones in 0… and +255… form', async () => {
      expect(await names('?search=BARAKA')).toEqual(['baraka', 'Daudi']);
      expect(await names('?search=kima')).toEqual(['Zawadi']);
      expect(await names('?search=amina%20juma')).toEqual(['Amina']);
      const { phone } = people.Daudi!;
      for (const form of [phone, e164(phone), e164(phone).slice(4)])
        expect(await names(`?search=${encodeURIComponent(form)}`), form).toEqual(['Daudi']);
      expect(await names('?search=%25')).toEqual([]);
      expect(await names('?search=_')).toEqual([]);
    });

    it('filters by role, status and shift', async () => {
      expect(await names('?role=manager')).toEqual(['baraka']);
      expect(await names('?status=on_leave')).toEqual(['Amina']);
      expect(await names('?shift=evening')).toEqual(['Amina', 'baraka']);
      expect(await names('?shift=evening&status=active&role=manager')).toEqual(['baraka']);
      expect((await get(owner, '/staff?role=owner')).body.errors[0].field).toBe('role');
    });
  });
});

import { Envelope, Store, StoreStaffList } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, e164, registerOwner, uniquePhone, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('/stores', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = (s: { token: string }, method: string, path: string, body?: unknown) => t.request(method, path, { token: s.token, body });
  const storeRow = (id: string) => t.db.db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const storeChanges = (orgId: string) =>
    t.db.db
      .selectFrom('change_log')
      .select(['entity', 'entity_id', 'op', 'store_id'])
      .where('org_id', '=', orgId)
      .where('entity', '=', 'store')
      .orderBy('version')
      .execute();
  const storeAudits = (orgId: string) =>
    t.db.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id', 'store_id', 'user_id', 'description'])
      .where('org_id', '=', orgId)
      .where('entity', '=', 'store')
      .orderBy('created_at')
      .execute();
  const snapshot = async (orgId: string) => ({
    stores: await t.db.db.selectFrom('stores').selectAll().where('org_id', '=', orgId).orderBy('id').execute(),
    changes: (await storeChanges(orgId)).length,
    audits: (await storeAudits(orgId)).length,
  });

  it('opens a store with every field: phone in +255 form, email and colour normalised, code upper case; logs and audits it', async () => {
    const owner = await registerOwner(t);
    const phone = uniquePhone();
    const res = await call(owner, 'POST', '/stores', {
      name: 'Kariakoo Branch',
      code: 'kk1',
      phone,
      email: 'Kariakoo@Duka.test',
      area: 'Kariakoo',
      address: 'Msimbazi St, Plot 12',
      latitude: -6.8163,
      longitude: 39.2777,
      open_hours: '07:00-21:30',
      color: '#1e88e5',
      status: 'busy',
      vat_enabled: true,
      outlet_type: 'pharmacy',
    });
    expect(res.status, res.text).toBe(200);
    const store = Envelope(Store).parse(res.body).data;
    expect(store).toEqual({
      id: store.id,
      name: 'Kariakoo Branch',
      code: 'KK1',
      phone: e164(phone),
      email: 'kariakoo@duka.test',
      area: 'Kariakoo',
      address: 'Msimbazi St, Plot 12',
      latitude: -6.8163,
      longitude: 39.2777,
      open_hours: '07:00-21:30',
      color: '#1E88E5',
      status: 'busy',
      vat_enabled: true,
      outlet_type: 'pharmacy',
      fiscal: false,
      is_active: true,
      created_at: new Date(t.clock.now()).toISOString(),
      updated_at: new Date(t.clock.now()).toISOString(),
    });
    expect((await call(owner, 'GET', `/stores/${store.id}`)).body.data).toEqual(store);
    expect(await storeChanges(owner.orgId)).toContainEqual({ entity: 'store', entity_id: store.id, op: 'upsert', store_id: store.id });
    expect(await storeAudits(owner.orgId)).toEqual([
      {
        action: 'store.create',
        entity_id: store.id,
        store_id: store.id,
        user_id: owner.userId,
        description: 'Opened store Kariakoo Branch (KK1)',
      },
    ]);
  });

  it('generates the code from the name, numbered when taken; a new store is open, without VAT', async () => {
    const owner = await registerOwner(t);
    const first = await call(owner, 'POST', '/stores', { name: 'Kariakoo Branch' });
    const second = await call(owner, 'POST', '/stores', { name: 'Kariakoo Bazaar' });
    expect(first.body.data).toMatchObject({
      code: 'KB',
      status: 'open',
      vat_enabled: false,
      is_active: true,
      phone: null,
      open_hours: null,
      color: null,
    });
    expect(second.body.data.code).toBe('KB2');
  });

  it('answers 409 DUPLICATE naming code for a code already in the organisation, in any case, and writes nothing', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    expect((await call(other, 'POST', '/stores', { name: 'Elsewhere', code: 'KB' })).status).toBe(200);
    expect((await call(owner, 'POST', '/stores', { name: 'Kariakoo Branch', code: 'KB' })).status).toBe(200);
    const before = await snapshot(owner.orgId);
    for (const code of ['KB', 'kb']) {
      const res = await call(owner, 'POST', '/stores', { name: 'Kibaha Branch', code });
      expect(res.status, code).toBe(409);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'DUPLICATE', field: 'code' })]);
    }
    expect(await snapshot(owner.orgId)).toEqual(before);
  });

  it('answers 400 naming the field for bad open hours, colour, code, phone or a missing name, and writes nothing', async () => {
    const owner = await registerOwner(t);
    const before = await snapshot(owner.orgId);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ open_hours: '25:00-08:00' }, 'open_hours'],
      [{ open_hours: '08:60-17:00' }, 'open_hours'],
      [{ open_hours: '8:00-17:00' }, 'open_hours'],
      [{ open_hours: '08:00 to 17:00' }, 'open_hours'],
      [{ color: 'red' }, 'color'],
      [{ color: '#12345G' }, 'color'],
      [{ color: '#FFF' }, 'color'],
      [{ code: 'KB-1' }, 'code'],
      [{ phone: '0000000000' }, 'phone'],
      [{ latitude: 91 }, 'latitude'],
      [{ status: 'sleeping' }, 'status'],
      [{ name: '' }, 'name'],
      [{ name: undefined }, 'name'],
    ];
    for (const [fields, field] of cases) {
      const res = await call(owner, 'POST', '/stores', { name: 'Mbezi Branch', ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.errors, JSON.stringify(fields)).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field })]);
    }
    expect(await snapshot(owner.orgId)).toEqual(before);
  });

  it('updates any field, logs and audits the change; a PATCH that changes nothing writes nothing', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
    const phone = uniquePhone();
    t.clock.advance(60_000);
    const body = {
      name: 'Kariakoo Kuu',
      phone,
      open_hours: '22:00-06:00',
      color: '#00aa55',
      vat_enabled: true,
      latitude: null,
      area: 'Ilala',
    };
    const res = await call(owner, 'PATCH', `/stores/${branch.id}`, body);
    expect(res.status, res.text).toBe(200);
    const expected = {
      id: branch.id,
      name: 'Kariakoo Kuu',
      code: 'KB',
      phone: e164(phone),
      open_hours: '22:00-06:00',
      color: '#00AA55',
      vat_enabled: true,
      latitude: null,
      area: 'Ilala',
      status: 'open',
      is_active: true,
    };
    expect(Envelope(Store).parse(res.body).data).toMatchObject({ ...expected, updated_at: new Date(t.clock.now()).toISOString() });
    expect((await call(owner, 'GET', `/stores/${branch.id}`)).body.data).toMatchObject(expected);
    expect((await storeChanges(owner.orgId)).filter((c) => c.entity_id === branch.id)).toEqual([
      { entity: 'store', entity_id: branch.id, op: 'upsert', store_id: branch.id },
      { entity: 'store', entity_id: branch.id, op: 'upsert', store_id: branch.id },
    ]);
    expect((await storeAudits(owner.orgId)).at(-1)).toMatchObject({
      action: 'store.update',
      entity_id: branch.id,
      store_id: branch.id,
      user_id: owner.userId,
    });

    const before = await snapshot(owner.orgId);
    const same = await call(owner, 'PATCH', `/stores/${branch.id}`, { name: 'Kariakoo Kuu', color: '#00AA55' });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject(expected);
    expect(await snapshot(owner.orgId)).toEqual(before);
  });

  it('refuses a PATCH with bad input (400 naming the field) or a taken code (409), leaving the store as it was', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
    const main = await storeRow(owner.storeId);
    const before = await snapshot(owner.orgId);
    for (const [body, field] of [
      [{ open_hours: '25:00-08:00' }, 'open_hours'],
      [{ color: 'blue' }, 'color'],
      [{ phone: '12' }, 'phone'],
      [{ phone: '0000000000' }, 'phone'],
      [{ name: '  ' }, 'name'],
    ] as const) {
      const res = await call(owner, 'PATCH', `/stores/${branch.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field })]);
    }
    const taken = await call(owner, 'PATCH', `/stores/${branch.id}`, { code: main.code.toLowerCase(), name: 'Renamed' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([expect.objectContaining({ code: 'DUPLICATE', field: 'code' })]);
    expect(await snapshot(owner.orgId)).toEqual(before);
  });

  it('sets the status open, closed or busy; logs and audits it', async () => {
    const owner = await registerOwner(t);
    for (const status of ['closed', 'busy', 'open']) {
      const res = await call(owner, 'PATCH', `/stores/${owner.storeId}/status`, { status });
      expect(res.status).toBe(200);
      expect(Envelope(Store).parse(res.body).data).toMatchObject({ id: owner.storeId, status });
      expect((await storeRow(owner.storeId)).status).toBe(status);
    }
    expect((await storeChanges(owner.orgId)).filter((c) => c.entity_id === owner.storeId)).toHaveLength(4);
    expect((await storeAudits(owner.orgId)).map((a) => a.description)).toEqual([
      'Marked store Mama Asha Duka closed',
      'Marked store Mama Asha Duka busy',
      'Marked store Mama Asha Duka open',
    ]);
    for (const body of [{ status: 'sleeping' }, {}]) {
      const res = await call(owner, 'PATCH', `/stores/${owner.storeId}/status`, body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'status' })]);
    }
  });

  it('deactivates a store (soft delete) but never the last active one; PATCH is_active true reactivates', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
    const res = await call(owner, 'DELETE', `/stores/${branch.id}`);
    expect(res.status).toBe(200);
    expect(Envelope(Store).parse(res.body).data).toMatchObject({
      id: branch.id,
      name: 'Kariakoo Branch',
      is_active: false,
      status: 'open',
    });
    expect((await storeRow(branch.id)).is_active).toBe(0);
    expect((await storeAudits(owner.orgId)).at(-1)).toMatchObject({
      action: 'store.deactivate',
      entity_id: branch.id,
      description: 'Deactivated store Kariakoo Branch',
    });
    expect((await call(owner, 'POST', '/accounts/switch-store', { store_id: branch.id })).status).toBe(409);
    expect((await call(owner, 'GET', '/stores?status=inactive')).body.data.items.map((s: Store) => s.id)).toEqual([branch.id]);
    expect((await call(owner, 'GET', '/stores?status=active')).body.data.items.map((s: Store) => s.id)).toEqual([owner.storeId]);

    const before = await snapshot(owner.orgId);
    const last = await call(owner, 'DELETE', `/stores/${owner.storeId}`);
    expect(last.status).toBe(409);
    expect(last.body.errors[0].code).toBe('INVALID_STATE');
    expect((await call(owner, 'PATCH', `/stores/${owner.storeId}`, { is_active: false })).status).toBe(409);
    expect((await call(owner, 'DELETE', `/stores/${branch.id}`)).body.data.is_active).toBe(false);
    expect(await snapshot(owner.orgId)).toEqual(before);

    const back = await call(owner, 'PATCH', `/stores/${branch.id}`, { is_active: true });
    expect(back.body.data).toMatchObject({ id: branch.id, is_active: true });
    expect((await storeAudits(owner.orgId)).at(-1)).toMatchObject({ action: 'store.reactivate', entity_id: branch.id });
    expect((await call(owner, 'DELETE', `/stores/${owner.storeId}`)).body.data).toMatchObject({ id: owner.storeId, is_active: false });
  });

  it('lists the active accounts assigned to a store, by name', async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
    const zawadi = await createStaff(t, owner, { first_name: 'Zawadi' });
    const juma = await createStaff(t, owner, { first_name: 'Juma' });
    const neema = await createStaff(t, owner, { first_name: 'Neema', role: 'manager', store_id: branch.id });
    const gone = await createStaff(t, owner, { first_name: 'Baraka' });
    expect((await call(owner, 'DELETE', `/accounts/users/${gone.user.id}`)).status).toBe(204);

    const main = await call(owner, 'GET', `/stores/${owner.storeId}/staff`);
    expect(main.status).toBe(200);
    const list = Envelope(StoreStaffList).parse(main.body).data;
    expect(list.count).toBe(3);
    expect(list.items.map((u) => [u.id, u.first_name, u.role, u.store_id])).toEqual([
      [owner.userId, 'Asha', 'owner', owner.storeId],
      [juma.user.id, 'Juma', 'staff', owner.storeId],
      [zawadi.user.id, 'Zawadi', 'staff', owner.storeId],
    ]);
    expect((await call(owner, 'GET', `/stores/${branch.id}/staff`)).body.data).toMatchObject({
      count: 1,
      items: [{ id: neema.user.id, first_name: 'Neema', role: 'manager' }],
    });
    const empty = await addStore(t, owner.orgId, 'Mbezi Branch');
    expect((await call(owner, 'GET', `/stores/${empty.id}/staff`)).body.data).toEqual({ items: [], count: 0 });
  });

  // No token, staff or a manager, another organisation's store, a malformed id: test/api/access-rules.test.ts.
  it("lists only the caller's organisation's stores", async () => {
    const owner = await registerOwner(t);
    const other: Session = await registerOwner(t);
    await addStore(t, other.orgId, 'Their Branch');
    const mine = await call(owner, 'GET', '/stores');
    expect(mine.body.data.items.map((s: Store) => s.id)).toEqual([owner.storeId]);
  });
});

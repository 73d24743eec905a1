import {
  AdminOrganisation,
  AdminOrganisationDetail,
  AdminStore,
  AdminSubscription,
  AdminUser,
  AdminAiUsage,
  Envelope,
  PagedEnvelope,
} from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localMonth } from '../../server/src/lib/time.js';
import { addStore, createStaff, registerOwner, type Session, mfaAdminToken } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('admin: organisations, users, stores, plans and AI usage', () => {
  let t: TestApp;
  let admin: { token: string; passwordOnly: string; userId: string };
  let a: Session;
  let b: Session;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await mfaAdminToken(t);
    a = await registerOwner(t, { shop: { name: 'Duka la Asha', business_type: 'retail', region: 'dar-es-salaam', district: 'Kinondoni' } });
    b = await registerOwner(t, {
      shop: { name: 'Bakari Wholesale', business_type: 'wholesale', region: 'dar-es-salaam', district: 'Ilala' },
    });
  });
  afterAll(() => t.close());

  const get = (path: string, token = admin.token) => t.request('GET', path, { token });
  const patch = (path: string, body: unknown) => t.request('PATCH', path, { token: admin.token, body });
  const orgName = async (s: Session) =>
    (await t.db.db.selectFrom('organisations').select('name').where('id', '=', s.orgId).executeTakeFirstOrThrow()).name;
  const audits = (entityId: string) =>
    t.db.db
      .selectFrom('audit_log')
      .select(['action', 'org_id', 'user_id'])
      .where('entity_id', '=', entityId)
      .orderBy('created_at')
      .execute();

  // No token, an owner, an admin without MFA: test/api/access-rules.test.ts.
  it('lists organisations with counts, search, type and status filters and exact paging', async () => {
    await addStore(t, a.orgId, 'Kariakoo Branch');
    const all = PagedEnvelope(AdminOrganisation).parse((await get('/admin/organisations')).body);
    expect(all.meta).toEqual({ page: 1, page_size: 20, total: 2, total_pages: 1 });
    expect(all.data.map((o) => o.id)).toEqual([b.orgId, a.orgId]);
    expect(all.data[1]).toMatchObject({
      name: await orgName(a),
      is_active: true,
      plan: 'free',
      store_count: 2,
      user_count: 1,
      ai_credits_monthly: null,
      business_type: 'retail',
    });
    const paged = PagedEnvelope(AdminOrganisation).parse((await get('/admin/organisations?page=2&page_size=1')).body);
    expect(paged.meta).toEqual({ page: 2, page_size: 1, total: 2, total_pages: 2 });
    expect(paged.data.map((o) => o.id)).toEqual([a.orgId]);
    const wholesale = PagedEnvelope(AdminOrganisation).parse((await get('/admin/organisations?business_type=wholesale')).body);
    expect(wholesale.data.map((o) => o.id)).toEqual([b.orgId]);
    const search = PagedEnvelope(AdminOrganisation).parse(
      (await get(`/admin/organisations?search=${encodeURIComponent((await orgName(a)).slice(0, 6).toLowerCase())}`)).body,
    );
    expect(search.data.map((o) => o.id)).toContain(a.orgId);
    expect(search.data.map((o) => o.id)).not.toContain(b.orgId);
    expect((await get('/admin/organisations?status=inactive')).body.meta.total).toBe(0);
    expect((await get('/admin/organisations?status=paused')).status).toBe(400);
  });

  it('details an organisation with related counts; 404 for an unknown id, 400 for a bad one', async () => {
    const res = await get(`/admin/organisations/${a.orgId}`);
    expect(res.status, res.text).toBe(200);
    const d = Envelope(AdminOrganisationDetail).parse(res.body).data;
    expect(d.counts).toEqual({
      stores: 2,
      active_stores: 2,
      users: 1,
      active_users: 1,
      products: 0,
      customers: 0,
      suppliers: 0,
      transactions: 0,
      devices: 0,
    });
    expect(d).toMatchObject({
      sales_total: 0,
      last_sale_at: null,
      ai_credits: { month: localMonth(t.clock.now(), 'Africa/Dar_es_Salaam'), used: 0, allocated: 100 },
    });
    expect((await get('/admin/organisations/0190a6f0-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await get('/admin/organisations/not-a-uuid')).status).toBe(400);
    const stores = PagedEnvelope(AdminStore).parse((await get(`/admin/organisations/${a.orgId}/stores`)).body);
    expect((stores.meta as { total: number }).total).toBe(2);
    expect(stores.data.every((s) => s.org_id === a.orgId && s.organisation_name === d.name)).toBe(true);
    expect((await get('/admin/organisations/0190a6f0-0000-7000-8000-000000000000/users')).status).toBe(404);
  });

  it('lists users with organisation, role, status and search filters', async () => {
    const staff = await createStaff(t, a, { first_name: 'Zuberi', role: 'staff' });
    const users = PagedEnvelope(AdminUser).parse((await get(`/admin/organisations/${a.orgId}/users`)).body);
    expect((users.meta as { total: number }).total).toBe(2);
    expect(users.data.map((u) => u.id)).toEqual([staff.user.id, a.userId]);
    expect(users.data[0]).toMatchObject({ org_id: a.orgId, organisation_name: await orgName(a), role: 'staff', is_active: true });
    const admins = PagedEnvelope(AdminUser).parse((await get('/admin/users?role=admin')).body);
    expect(admins.data.map((u) => u.id)).toEqual([admin.userId]);
    expect(admins.data[0]).toMatchObject({ org_id: null, organisation_name: null, mfa_enabled: true });
    const found = PagedEnvelope(AdminUser).parse((await get('/admin/users?search=zuber')).body);
    expect(found.data.map((u) => u.id)).toEqual([staff.user.id]);
    expect((await get(`/admin/users?org_id=${b.orgId}`)).body.meta.total).toBe(1);
    expect((await get('/admin/users?role=king')).status).toBe(400);
  });

  it('deactivating a user signs them out: no sign-in, no refresh; reactivating lets them in; both audited', async () => {
    const staff = await createStaff(t, a, { first_name: 'Rehema', role: 'staff' });
    const res = await patch(`/admin/users/${staff.user.id}`, { is_active: false });
    expect(res.status, res.text).toBe(200);
    expect(Envelope(AdminUser).parse(res.body).data).toMatchObject({ is_active: false, employment_status: 'inactive' });
    expect((await t.request('POST', '/auth/refresh', { body: { refresh_token: staff.refresh } })).status).toBe(401);
    expect((await t.request('POST', '/auth/login', { body: { identifier: staff.phone, password: staff.password } })).status).toBe(403);
    expect((await get(`/admin/users?status=inactive&org_id=${a.orgId}`)).body.data.map((u: { id: string }) => u.id)).toEqual([
      staff.user.id,
    ]);
    const back = await patch(`/admin/users/${staff.user.id}`, { is_active: true, role: 'manager' });
    expect(Envelope(AdminUser).parse(back.body).data).toMatchObject({ is_active: true, role: 'manager', employment_status: 'active' });
    expect((await t.request('POST', '/auth/login', { body: { identifier: staff.phone, password: staff.password } })).status).toBe(200);
    const trail = await audits(staff.user.id);
    expect(trail.filter((e) => e.action.startsWith('admin.'))).toEqual([
      { action: 'admin.user.update', org_id: a.orgId, user_id: admin.userId },
      { action: 'admin.user.update', org_id: a.orgId, user_id: admin.userId },
    ]);
    expect(trail.map((e) => e.action)).toContain('staff.update');
  });

  it("refuses to change an owner's role or an administrator (422), bad input (400), unknown user (404)", async () => {
    expect((await patch(`/admin/users/${a.userId}`, { role: 'staff' })).status).toBe(422);
    expect((await patch(`/admin/users/${admin.userId}`, { is_active: false })).status).toBe(422);
    expect((await patch(`/admin/users/${a.userId}`, { role: 'owner' })).status).toBe(400);
    expect((await patch(`/admin/users/${a.userId}`, {})).status).toBe(400);
    expect((await patch('/admin/users/0190a6f0-0000-7000-8000-000000000000', { is_active: false })).status).toBe(404);
  });

  it('deactivates a store under the owner rules (the only active store stays, 409) and the owner sees it', async () => {
    const branch = (await get(`/admin/stores?org_id=${a.orgId}&search=kariakoo`)).body.data[0] as { id: string };
    const res = await patch(`/admin/stores/${branch.id}`, { is_active: false });
    expect(res.status, res.text).toBe(200);
    expect(Envelope(AdminStore).parse(res.body).data).toMatchObject({ id: branch.id, is_active: false, org_id: a.orgId });
    const owner = await t.request('GET', `/stores/${branch.id}`, { token: a.token });
    expect(owner.body.data.is_active).toBe(false);
    expect(
      (await t.request('POST', '/accounts/switch-store', { token: a.token, body: { store_id: branch.id } })).status,
    ).toBeGreaterThanOrEqual(400);
    expect((await patch(`/admin/stores/${a.storeId}`, { is_active: false })).status).toBe(409);
    expect((await get('/admin/stores?status=inactive')).body.data.map((s: { id: string }) => s.id)).toEqual([branch.id]);
    expect((await audits(branch.id)).map((e) => e.action)).toEqual(['store.deactivate', 'admin.store.update']);
    expect((await patch('/admin/stores/0190a6f0-0000-7000-8000-000000000000', { status: 'closed' })).status).toBe(404);
    expect((await patch(`/admin/stores/${a.storeId}`, { status: 'asleep' })).status).toBe(400);
  });

  it('suspends an organisation (its users signed out), sets AI credits, and shows plans and usage', async () => {
    const res = await patch(`/admin/organisations/${b.orgId}`, { is_active: false, ai_credits_monthly: 250 });
    expect(res.status, res.text).toBe(200);
    expect(Envelope(AdminOrganisationDetail).parse(res.body).data).toMatchObject({ is_active: false, ai_credits_monthly: 250 });
    expect((await t.request('POST', '/auth/refresh', { body: { refresh_token: b.refresh } })).status).toBe(401);
    // A suspended shop cannot sign in again until it is reinstated.
    const login = () => t.request('POST', '/auth/login', { body: { identifier: b.phone, password: b.password } });
    const refused = await login();
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject({ code: 'FORBIDDEN', message: 'this shop has been suspended; contact Duka support' });
    expect((await audits(b.orgId)).map((e) => e.action)).toEqual(['admin.organisation.update']);
    const owner = await t.request('GET', '/accounts/ai-credits', { token: a.token });
    expect(owner.body.data.allocated).toBe(100);
    const month = localMonth(t.clock.now(), 'Africa/Dar_es_Salaam');
    await t.db.db.insertInto('ai_credit_usage').values({ org_id: a.orgId, month, used: 40, tokens: 12_000 }).execute();
    const usage = PagedEnvelope(AdminAiUsage).parse((await get('/admin/ai/usage')).body);
    expect((usage.meta as { total: number }).total).toBe(2);
    expect(usage.data).toEqual([
      {
        org_id: a.orgId,
        organisation_name: await orgName(a),
        month,
        used: 40,
        tokens: 12_000,
        allocated: 100,
        remaining: 60,
        percentage: 40,
      },
      { org_id: b.orgId, organisation_name: await orgName(b), month, used: 0, tokens: 0, allocated: 250, remaining: 250, percentage: 0 },
    ]);
    expect((await get('/admin/ai/usage?month=2020-01')).body.data.map((u: { used: number }) => u.used)).toEqual([0, 0]);
    expect((await get('/admin/ai/usage?month=2020-13')).status).toBe(400);
    const subs = PagedEnvelope(AdminSubscription).parse((await get('/admin/subscriptions?status=suspended')).body);
    expect(subs.data).toEqual([
      {
        org_id: b.orgId,
        organisation_name: await orgName(b),
        plan: 'free',
        status: 'suspended',
        subscription_status: 'active',
        ai_credits_monthly: 250,
        ai_credits_custom: true,
        since: expect.any(String),
        billing: null,
      },
    ]);
    expect((await get('/admin/subscriptions')).body.meta.total).toBe(2);
    expect((await patch(`/admin/organisations/${b.orgId}`, { ai_credits_monthly: -1 })).status).toBe(400);
    expect((await patch('/admin/organisations/0190a6f0-0000-7000-8000-000000000000', { is_active: true })).status).toBe(404);
  });
});

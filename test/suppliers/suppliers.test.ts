import { Envelope, PagedEnvelope, Supplier, SupplierStats } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner } from '../setup/factories.js';
import { newDelivery, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('suppliers: records, filters, soft delete and stats', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('creates, reads, updates and lists suppliers with search and status filters', async () => {
    const owner = await registerOwner(t);
    const created = await t.request('POST', '/suppliers', {
      token: owner.token,
      body: {
        name: 'Azam Distributors',
        category: 'Flour',
        rep: 'Said Omari',
        phone: '0754123456',
        email: 'Orders@Azam.co.tz',
        address: 'Kariakoo',
        payment_terms: 30,
        lead_time_days: 3,
        notes: 'Delivers Tuesdays',
      },
    });
    expect(created.status, created.text).toBe(200);
    const azam = Envelope(Supplier).parse(created.body).data;
    expect(azam).toMatchObject({
      name: 'Azam Distributors',
      category: 'Flour',
      rep: 'Said Omari',
      email: 'orders@azam.co.tz',
      payment_terms: 30,
      lead_time_days: 3,
      status: 'active',
      outstanding_balance: 0,
    });
    await newSupplier(t, owner, { name: 'Coca-Cola Kwanza', category: 'Drinks', status: 'on_hold' });
    await newSupplier(t, owner, { name: 'Mohamed Enterprises', rep: 'Azam Ally' });

    const patched = await t.request('PATCH', `/suppliers/${azam.id}`, {
      token: owner.token,
      body: { status: 'inactive', notes: null, payment_terms: 14, lead_time_days: null },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({
      status: 'inactive',
      notes: null,
      payment_terms: 14,
      lead_time_days: null,
      rep: 'Said Omari',
    });

    const all = PagedEnvelope(Supplier).parse((await t.request('GET', '/suppliers', { token: owner.token })).body);
    expect(all.data.map((s) => s.name)).toEqual(['Azam Distributors', 'Coca-Cola Kwanza', 'Mohamed Enterprises']);
    expect(all.meta).toEqual({ page: 1, page_size: 20, total: 3, total_pages: 1 });
    const search = (await t.request('GET', '/suppliers?search=azam', { token: owner.token })).body.data.map((s: Supplier) => s.name);
    expect(search).toEqual(['Azam Distributors', 'Mohamed Enterprises']);
    const held = (await t.request('GET', '/suppliers?status=on_hold', { token: owner.token })).body.data.map((s: Supplier) => s.name);
    expect(held).toEqual(['Coca-Cola Kwanza']);
    const page2 = await t.request('GET', '/suppliers?page=2&page_size=2', { token: owner.token });
    expect(page2.body.data.map((s: Supplier) => s.name)).toEqual(['Mohamed Enterprises']);
    expect(page2.body.meta).toEqual({ page: 2, page_size: 2, total: 3, total_pages: 2 });

    const got = await t.request('GET', `/suppliers/${azam.id}`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.body.data.outstanding_balance).toBe(0);
  });

  it('refuses bad input naming the field', async () => {
    const owner = await registerOwner(t);
    const noName = await t.request('POST', '/suppliers', { token: owner.token, body: { category: 'Drinks' } });
    expect(noName.status).toBe(400);
    expect(noName.body.errors[0]).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
    const badStatus = await t.request('POST', '/suppliers', { token: owner.token, body: { name: 'X', status: 'closed' } });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors[0].field).toBe('status');
    const badTerms = await t.request('POST', '/suppliers', { token: owner.token, body: { name: 'X', payment_terms: 2.5 } });
    expect(badTerms.body.errors[0].field).toBe('payment_terms');
    const badLead = await t.request('POST', '/suppliers', { token: owner.token, body: { name: 'X', lead_time_days: 366 } });
    expect(badLead.status).toBe(400);
    expect(badLead.body.errors[0].field).toBe('lead_time_days');
    const badFilter = await t.request('GET', '/suppliers?status=gone', { token: owner.token });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.errors[0].field).toBe('status');
    expect((await t.request('GET', '/suppliers/not-a-uuid', { token: owner.token })).status).toBe(400);
  });

  it('soft-deletes: the supplier disappears from lists, stats and its id, and its deliveries stay', async () => {
    const owner = await registerOwner(t);
    const gone = await newSupplier(t, owner, { name: 'Old Supplier' });
    const delivery = await newDelivery(t, owner, gone.id, { total_value: 10_000, status: 'delivered' });
    const res = await t.request('DELETE', `/suppliers/${gone.id}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: null });
    expect((await t.request('GET', `/suppliers/${gone.id}`, { token: owner.token })).status).toBe(404);
    expect((await t.request('PATCH', `/suppliers/${gone.id}`, { token: owner.token, body: { name: 'Back' } })).status).toBe(404);
    expect((await t.request('DELETE', `/suppliers/${gone.id}`, { token: owner.token })).status).toBe(404);
    expect((await t.request('GET', '/suppliers', { token: owner.token })).body.meta.total).toBe(0);
    const row = await t.db.db.selectFrom('suppliers').select(['status', 'deleted_at']).where('id', '=', gone.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('inactive');
    expect(Number(row.deleted_at)).toBe(t.clock.now());
    expect((await t.request('GET', `/suppliers/deliveries/${delivery.id}`, { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', '/suppliers/stats', { token: owner.token })).body.data).toMatchObject({
      total_suppliers: 0,
      total_outstanding: 0,
    });
  });

  // Another organisation's supplier on every supplier route, and no token: test/api/access-rules.test.ts.
  it("lists no other organisation's suppliers; staff may manage suppliers", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    await newSupplier(t, other);
    expect((await t.request('GET', '/suppliers', { token: owner.token })).body.data).toEqual([]);
    const staff = await createStaff(t, owner);
    const made = await t.request('POST', '/suppliers', { token: staff.token, body: { name: 'Staff Made' } });
    expect(made.status, made.text).toBe(200);
    expect((await t.request('GET', '/suppliers/stats', { token: staff.token })).status).toBe(200);
  });

  it('documents every supplier and expense route in the OpenAPI reference', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const routes = [
      'get /suppliers',
      'post /suppliers',
      'get /suppliers/stats',
      'get /suppliers/{id}',
      'patch /suppliers/{id}',
      'delete /suppliers/{id}',
      'get /suppliers/deliveries',
      'post /suppliers/deliveries',
      'get /suppliers/deliveries/{id}',
      'patch /suppliers/deliveries/{id}',
      'delete /suppliers/deliveries/{id}',
      'post /suppliers/deliveries/{id}/pay',
      'get /suppliers/payments',
      'get /suppliers/{id}/payments',
      'post /suppliers/{id}/pay',
      'get /suppliers/{id}/deliveries',
      'post /suppliers/{id}/deliveries',
      'get /expenses',
      'post /expenses',
      'get /expenses/summary',
      'get /expenses/{id}',
      'patch /expenses/{id}',
      'delete /expenses/{id}',
    ];
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[path]?.[method]?.security, route).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.paths['/suppliers/{id}/pay'].post.responses['422']).toBeDefined();
    expect(doc.paths['/suppliers/{id}/pay'].post.parameters.map((p: { name: string }) => p.name)).toContain('idempotency-key');
  });

  it('stats: counts, outstanding across suppliers, this month’s deliveries and payments', async () => {
    const owner = await registerOwner(t);
    const a = await newSupplier(t, owner, { name: 'A' });
    const b = await newSupplier(t, owner, { name: 'B', status: 'on_hold' });
    await newSupplier(t, owner, { name: 'C', status: 'inactive' });
    await newDelivery(t, owner, a.id, { total_value: 120_000, status: 'delivered' });
    await newDelivery(t, owner, a.id, { total_value: 30_000.5, status: 'partial' });
    await newDelivery(t, owner, b.id, { total_value: 45_000, status: 'delivered', delivery_date: '2020-01-10T08:00:00Z' });
    await newDelivery(t, owner, b.id, { total_value: 99_000, status: 'expected' });
    await newDelivery(t, owner, b.id, { total_value: 7_000, status: 'cancelled' });
    await newDelivery(t, owner, b.id, { total_value: 8_000, status: 'delivered', is_paid: true });
    const paid = await t.request('POST', `/suppliers/${a.id}/pay`, {
      token: owner.token,
      body: { amount: 20_000, payment_method: 'M-Pesa' },
    });
    expect(paid.status, paid.text).toBe(200);
    const res = await t.request('GET', '/suppliers/stats', { token: owner.token });
    expect(res.status).toBe(200);
    expect(Envelope(SupplierStats).parse(res.body).data).toEqual({
      total_suppliers: 3,
      active_suppliers: 1,
      total_outstanding: 175_000.5,
      deliveries_this_month: 4,
      payments_this_month: 20_000,
    });
    expect(await (await t.request('GET', `/suppliers/${a.id}`, { token: owner.token })).body.data.outstanding_balance).toBe(130_000.5);
    expect(await (await t.request('GET', `/suppliers/${b.id}`, { token: owner.token })).body.data.outstanding_balance).toBe(45_000);
  });
});

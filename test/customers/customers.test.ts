import { Customer, CustomerList, CustomerWithCredit, Envelope, PageMeta } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { e164, insertCreditSale, registerOwner, type Session, uniqueEmail, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const DAY = 86_400_000;

describe('customers', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const create = (s: Session, body: Record<string, unknown>) => t.request('POST', '/customers', { token: s.token, body });
  const newCustomer = async (s: Session, body: Record<string, unknown> = {}) => {
    const res = await create(s, { name: 'Baraka Mwita', ...body });
    expect(res.status, res.text).toBe(200);
    return Envelope(Customer).parse(res.body).data;
  };
  const list = async (s: Session, query = '') => {
    const res = await t.request('GET', `/customers${query}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(CustomerList, PageMeta).parse(res.body);
  };
  const changes = (orgId: string, id: string) =>
    t.db.db.selectFrom('change_log').select(['entity', 'op']).where('org_id', '=', orgId).where('entity_id', '=', id).execute();
  const audits = (orgId: string, id: string) =>
    t.db.db.selectFrom('audit_log').select('action').where('org_id', '=', orgId).where('entity_id', '=', id).execute();

  it('creates a customer with its phone in E.164 and answers the full customer', async () => {
    const owner = await registerOwner(t);
    const phone = uniquePhone();
    const email = uniqueEmail('mteja');
    const res = await create(owner, { name: ' Neema Joseph ', phone, email: email.toUpperCase(), credit_limit: 50_000.5, notes: 'Jirani' });
    expect(res.status, res.text).toBe(200);
    const c = Envelope(Customer).parse(res.body).data;
    expect(c).toMatchObject({
      name: 'Neema Joseph',
      phone: e164(phone),
      email,
      segment: 'New',
      credit_limit: 50_000.5,
      notes: 'Jirani',
      is_active: true,
      total_spend: 0,
      visit_count: 0,
      outstanding_balance: 0,
    });
    expect(await changes(owner.orgId, c.id)).toEqual([{ entity: 'customer', op: 'upsert' }]);
    expect(await audits(owner.orgId, c.id)).toEqual([{ action: 'customer.create' }]);
    const minimal = await newCustomer(owner, { name: 'Walk-in' });
    expect(minimal).toMatchObject({ phone: null, email: null, notes: null, credit_limit: 0 });
  });

  it('keeps phones unique in the organisation in either form (409 DUPLICATE), but not across organisations', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const phone = uniquePhone();
    await newCustomer(owner, { phone });
    const again = await create(owner, { name: 'Twin', phone: e164(phone) });
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({ code: 'DUPLICATE', field: 'phone' });
    await newCustomer(other, { phone });
    expect((await list(owner)).data.total).toBe(1);
  });

  it('answers bad input with 400 naming the field and writes nothing', async () => {
    const owner = await registerOwner(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x', phone: '12345678' }, 'phone'],
      [{ name: 'x', email: 'not-an-email' }, 'email'],
      [{ name: 'x', credit_limit: -1 }, 'credit_limit'],
      [{ name: 'x', credit_limit: 10.001 }, 'credit_limit'],
      [{ name: 'x', segment: 'Gold' }, 'segment'],
      [{ name: 'x', is_active: 'yes' }, 'is_active'],
    ];
    for (const [body, field] of cases) {
      const res = await create(owner, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].field, JSON.stringify(body)).toBe(field);
    }
    expect((await list(owner)).data.total).toBe(0);
  });

  it('lists customers by name with search, segment and paging', async () => {
    const owner = await registerOwner(t);
    const phone = uniquePhone();
    await newCustomer(owner, { name: 'Zawadi Said', phone });
    await newCustomer(owner, { name: 'Amina Hassan', email: 'amina@duka.test', segment: 'VIP' });
    await newCustomer(owner, { name: 'Juma Kessy', segment: 'Regular' });
    const all = await list(owner);
    expect(all.data.items.map((c) => c.name)).toEqual(['Amina Hassan', 'Juma Kessy', 'Zawadi Said']);
    expect(all.data.total).toBe(3);
    expect(all.meta).toEqual({ page: 1, page_size: 20, total: 3, total_pages: 1 });
    const page2 = await list(owner, '?page=2&page_size=2');
    expect(page2.data.items.map((c) => c.name)).toEqual(['Zawadi Said']);
    expect(page2.meta).toEqual({ page: 2, page_size: 2, total: 3, total_pages: 2 });
    const names = async (q: string) => (await list(owner, q)).data.items.map((c) => c.name);
    expect(await names('?search=kes')).toEqual(['Juma Kessy']);
    expect(await names('?search=AMINA@duka')).toEqual(['Amina Hassan']);
    expect(await names(`?search=${phone.slice(0, 7)}`)).toEqual(['Zawadi Said']);
    expect(await names(`?search=${encodeURIComponent(e164(phone))}`)).toEqual(['Zawadi Said']);
    expect(await names('?segment=VIP')).toEqual(['Amina Hassan']);
    expect((await t.request('GET', '/customers?segment=Gold', { token: owner.token })).status).toBe(400);
    expect(PageMeta.parse((await list(owner, '?page_size=500')).meta).page_size).toBe(100);
  });

  it('filters by has_credit and shows each outstanding balance', async () => {
    const owner = await registerOwner(t);
    const debtor = await newCustomer(owner, { name: 'Deni' });
    await newCustomer(owner, { name: 'Safi' });
    await insertCreditSale(t, { orgId: owner.orgId, storeId: owner.storeId, customerId: debtor.id, total: 7_250.25 });
    const owing = await list(owner, '?has_credit=true');
    expect(owing.data.items.map((c) => [c.name, c.outstanding_balance])).toEqual([['Deni', 7_250.25]]);
    expect((await list(owner, '?has_credit=false')).data.items.map((c) => [c.name, c.outstanding_balance])).toEqual([['Safi', 0]]);
    expect((await t.request('GET', `/customers/${debtor.id}`, { token: owner.token })).body.data.outstanding_balance).toBe(7_250.25);
  });

  // Another organisation's, an unknown or a malformed id: test/api/access-rules.test.ts.
  it('reads and updates one customer', async () => {
    const owner = await registerOwner(t);
    const c = await newCustomer(owner, { phone: uniquePhone(), email: uniqueEmail(), notes: 'n' });
    const got = await t.request('GET', `/customers/${c.id}`, { token: owner.token });
    expect(Envelope(Customer).parse(got.body).data).toEqual(c);

    t.clock.advance(1000);
    const res = await t.request('PATCH', `/customers/${c.id}`, {
      token: owner.token,
      body: { name: 'Baraka M.', phone: null, email: null, credit_limit: 20_000, is_active: false },
    });
    expect(res.status, res.text).toBe(200);
    const updated = Envelope(Customer).parse(res.body).data;
    expect(updated).toMatchObject({ name: 'Baraka M.', phone: null, email: null, notes: 'n', credit_limit: 20_000, is_active: false });
    expect(updated.updated_at > c.updated_at).toBe(true);
    expect(await changes(owner.orgId, c.id)).toHaveLength(2);
    expect((await audits(owner.orgId, c.id)).map((a) => a.action)).toEqual(['customer.create', 'customer.update']);

    const same = await t.request('PATCH', `/customers/${c.id}`, { token: owner.token, body: { name: 'Baraka M.' } });
    expect(same.body.data).toEqual(updated);
    expect(await changes(owner.orgId, c.id)).toHaveLength(2);
  });

  it('refuses a PATCH to a phone another customer has', async () => {
    const owner = await registerOwner(t);
    const phone = uniquePhone();
    await newCustomer(owner, { phone });
    const c = await newCustomer(owner, { name: 'Pili' });
    const res = await t.request('PATCH', `/customers/${c.id}`, { token: owner.token, body: { phone } });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ code: 'DUPLICATE', field: 'phone' });
    const own = await t.request('PATCH', `/customers/${c.id}`, { token: owner.token, body: { phone: uniquePhone() } });
    expect(own.status).toBe(200);
  });

  it('lists customers who owe, with their credit figures, most overdue first', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const late = await newCustomer(owner, { name: 'Late Payer' });
    const fresh = await newCustomer(owner, { name: 'Fresh Debt' });
    await newCustomer(owner, { name: 'Owes Nothing' });
    const foreign = await newCustomer(other, { name: 'Elsewhere' });
    const now = t.clock.now();
    const sale = (customerId: string, total: number, at: number, org = owner) =>
      insertCreditSale(t, { orgId: org.orgId, storeId: org.storeId, customerId, total, at });
    await sale(late.id, 4_000, now - 40 * DAY);
    await sale(late.id, 1_500, now - 35 * DAY);
    await sale(late.id, 500, now - DAY);
    await sale(fresh.id, 2_000, now);
    await sale(foreign.id, 9_000, now - 40 * DAY, other);

    const res = await t.request('GET', '/customers/credits', { token: owner.token });
    expect(res.status, res.text).toBe(200);
    const rows = Envelope(z.array(CustomerWithCredit)).parse(res.body).data;
    expect(rows.map((r) => [r.name, r.total_outstanding, r.outstanding_balance, r.open_tabs, r.overdue_count])).toEqual([
      ['Late Payer', 6_000, 6_000, 3, 2],
      ['Fresh Debt', 2_000, 2_000, 1, 0],
    ]);
    expect(rows[0]!.oldest_due_date! < rows[1]!.oldest_due_date!).toBe(true);
    const overdue = await t.request('GET', '/customers/credits?overdue=true', { token: owner.token });
    expect(overdue.body.data.map((r: CustomerWithCredit) => r.name)).toEqual(['Late Payer']);
    const current = await t.request('GET', '/customers/credits?overdue=false', { token: owner.token });
    expect(current.body.data.map((r: CustomerWithCredit) => r.name)).toEqual(['Fresh Debt']);
    expect((await t.request('GET', '/customers/credits?overdue=maybe', { token: owner.token })).status).toBe(400);
  });
});

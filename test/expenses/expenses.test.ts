import { Envelope, Expense, ExpenseSummary, PagedEnvelope, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';
import { DIALECT } from '../setup/test-db.js';

describe('expenses: per store, filters, ordering, summary and offline sync', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const create = (s: { token: string }, body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.request('POST', '/expenses', { token: s.token, body, headers });
  const made = async (s: { token: string }, body: Record<string, unknown>) => {
    const res = await create(s, body);
    expect(res.status, res.text).toBe(200);
    return Envelope(Expense).parse(res.body).data;
  };
  const titles = async (s: Session, query: string) => {
    const res = await t.request('GET', `/expenses${query}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return PagedEnvelope(Expense)
      .parse(res.body)
      .data.map((e) => e.title);
  };

  it('records, reads, updates and deletes an expense', async () => {
    const owner = await registerOwner(t);
    const rent = await made(owner, {
      title: 'Kodi ya duka Machi',
      category: 'Rent',
      amount: 350_000,
      payment_method: 'Bank',
      payment_reference: 'TRX-88',
      notes: 'March rent',
      receipt_url: 'https://files.duka.test/r/88.jpg',
      spent_at: '2026-03-01T07:00:00Z',
    });
    expect(rent).toMatchObject({
      store_id: owner.storeId,
      title: 'Kodi ya duka Machi',
      category: 'Rent',
      amount: 350_000,
      payment_method: 'Bank',
      payment_reference: 'TRX-88',
      receipt_url: 'https://files.duka.test/r/88.jpg',
      spent_at: '2026-03-01T07:00:00.000Z',
      created_by: owner.userId,
    });
    const plain = await made(owner, { title: 'Maji', category: 'Utilities', amount: 12_500.5 });
    expect(plain).toMatchObject({
      payment_method: 'Cash',
      payment_reference: null,
      notes: null,
      receipt_url: null,
      spent_at: new Date(t.clock.now()).toISOString(),
    });

    expect((await t.request('GET', `/expenses/${rent.id}`, { token: owner.token })).body.data).toEqual(rent);
    const patched = await t.request('PATCH', `/expenses/${rent.id}`, {
      token: owner.token,
      body: { amount: 360_000, notes: null, category: 'Other' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ amount: 360_000, notes: null, category: 'Other', title: 'Kodi ya duka Machi' });

    const del = await t.request('DELETE', `/expenses/${rent.id}`, { token: owner.token });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, data: null });
    expect((await t.request('GET', `/expenses/${rent.id}`, { token: owner.token })).status).toBe(404);
    expect(await t.db.db.selectFrom('expenses').select('id').where('id', '=', rent.id).execute()).toEqual([]);
  });

  it('refuses bad input naming the field', async () => {
    const owner = await registerOwner(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: 'Fuel', category: 'Petrol', amount: 10 }, 'category'],
      [{ category: 'Transport', amount: 10 }, 'title'],
      [{ title: 'Fuel', category: 'Transport' }, 'amount'],
      [{ title: 'Fuel', category: 'Transport', amount: 0 }, 'amount'],
      [{ title: 'Fuel', category: 'Transport', amount: 10.123 }, 'amount'],
      [{ title: 'Fuel', category: 'Transport', amount: 10, payment_method: 'Barter' }, 'payment_method'],
      [{ title: 'Fuel', category: 'Transport', amount: 10, receipt_url: 'not a url' }, 'receipt_url'],
      [{ title: 'Fuel', category: 'Transport', amount: 10, spent_at: 'last week' }, 'spent_at'],
    ];
    for (const [body, field] of cases) {
      const res = await create(owner, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    const badOrder = await t.request('GET', '/expenses?ordering=title', { token: owner.token });
    expect(badOrder.body.errors[0].field).toBe('ordering');
    const badCategory = await t.request('GET', '/expenses?category=Food', { token: owner.token });
    expect(badCategory.body.errors[0].field).toBe('category');
    expect((await t.request('GET', '/expenses', { token: owner.token })).body.meta.total).toBe(0);
  });

  it('filters by title, category and payment method, and orders by date or amount', async () => {
    const owner = await registerOwner(t);
    await made(owner, {
      title: 'Umeme LUKU',
      category: 'Utilities',
      amount: 50_000,
      payment_method: 'M-Pesa',
      spent_at: '2026-04-03T10:00:00Z',
    });
    await made(owner, {
      title: 'Mshahara Juma',
      category: 'Salaries',
      amount: 300_000,
      payment_method: 'Cash',
      spent_at: '2026-04-01T10:00:00Z',
    });
    await made(owner, {
      title: 'Nauli ya mzigo',
      category: 'Transport',
      amount: 15_000,
      payment_method: 'M-Pesa',
      spent_at: '2026-04-05T10:00:00Z',
    });
    await made(owner, {
      title: 'Maji DAWASA',
      category: 'Utilities',
      amount: 20_000,
      payment_method: 'Bank',
      spent_at: '2026-04-02T10:00:00Z',
    });
    expect(await titles(owner, '')).toEqual(['Nauli ya mzigo', 'Umeme LUKU', 'Maji DAWASA', 'Mshahara Juma']);
    expect(await titles(owner, '?ordering=date')).toEqual(['Mshahara Juma', 'Maji DAWASA', 'Umeme LUKU', 'Nauli ya mzigo']);
    expect(await titles(owner, '?ordering=-amount')).toEqual(['Mshahara Juma', 'Umeme LUKU', 'Maji DAWASA', 'Nauli ya mzigo']);
    expect(await titles(owner, '?ordering=amount')).toEqual(['Nauli ya mzigo', 'Maji DAWASA', 'Umeme LUKU', 'Mshahara Juma']);
    expect(await titles(owner, '?category=Utilities')).toEqual(['Umeme LUKU', 'Maji DAWASA']);
    expect(await titles(owner, '?payment_method=M-Pesa&ordering=amount')).toEqual(['Nauli ya mzigo', 'Umeme LUKU']);
    expect(await titles(owner, '?search=maji')).toEqual(['Maji DAWASA']);
    expect(await titles(owner, '?search=100%25')).toEqual([]);
    const page = await t.request('GET', '/expenses?page=2&page_size=3', { token: owner.token });
    expect(page.body.data.map((e: Expense) => e.title)).toEqual(['Mshahara Juma']);
    expect(page.body.meta).toEqual({ page: 2, page_size: 3, total: 4, total_pages: 2 });
  });

  it('summarises this month by default and a given range by local days (Dar es Salaam)', async () => {
    const owner = await registerOwner(t);
    await made(owner, { title: 'Kodi', category: 'Rent', amount: 200_000 });
    await made(owner, { title: 'Umeme', category: 'Utilities', amount: 45_000.25 });
    await made(owner, { title: 'Umeme tena', category: 'Utilities', amount: 4_999.75 });
    await made(owner, { title: 'Old rent', category: 'Rent', amount: 1_000, spent_at: '2020-01-15T10:00:00Z' });
    // 22:30 UTC on 31 March is 01:30 on 1 April in Dar es Salaam.
    await made(owner, { title: 'Night fuel', category: 'Transport', amount: 7_000, spent_at: '2025-03-31T22:30:00Z' });
    await made(owner, { title: 'March ads', category: 'Marketing', amount: 3_000, spent_at: '2025-03-31T20:30:00Z' });

    const res = await t.request('GET', '/expenses/summary', { token: owner.token });
    expect(res.status, res.text).toBe(200);
    const month = Envelope(ExpenseSummary).parse(res.body).data;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Dar_es_Salaam' }).format(new Date(t.clock.now()));
    expect(month).toEqual({
      total: 250_000,
      count: 3,
      by_category: {
        Rent: 200_000,
        Utilities: 50_000,
        Salaries: 0,
        Supplies: 0,
        Transport: 0,
        Marketing: 0,
        Maintenance: 0,
        'Licences & permits': 0,
        Insurance: 0,
        Other: 0,
      },
      date_from: `${today.slice(0, 7)}-01`,
      date_to: today,
    });
    const april = (await t.request('GET', '/expenses/summary?date_from=2025-04-01&date_to=2025-04-01', { token: owner.token })).body.data;
    expect(april).toMatchObject({ total: 7_000, count: 1, by_category: { Transport: 7_000, Marketing: 0 } });
    const march = (await t.request('GET', '/expenses/summary?date_from=2025-03-31&date_to=2025-03-31', { token: owner.token })).body.data;
    expect(march).toMatchObject({ total: 3_000, by_category: { Transport: 0, Marketing: 3_000 } });
    const wrong = await t.request('GET', '/expenses/summary?date_from=2026-04-02&date_to=2026-04-01', { token: owner.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].field).toBe('date_to');
    expect((await t.request('GET', '/expenses/summary?date_from=April', { token: owner.token })).body.errors[0].field).toBe('date_from');
  });

  // Another organisation's expense by id, and no token: test/api/access-rules.test.ts.
  it("keeps expenses to their store: another store's id is 404; staff may record them", async () => {
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId);
    const switched = await t.request('POST', '/accounts/switch-store', { token: owner.token, body: { store_id: branch.id } });
    expect(switched.status, switched.text).toBe(200);
    const branchToken = { token: switched.body.data.tokens.access_token as string };
    const atBranch = await made(branchToken, { title: 'Branch rent', category: 'Rent', amount: 90_000 });
    expect(atBranch.store_id).toBe(branch.id);
    const staff = await createStaff(t, owner);
    const mine = await made(staff, { title: 'Staff lunch', category: 'Other', amount: 6_000 });
    expect(mine.store_id).toBe(owner.storeId);
    expect((await t.request('GET', `/expenses/${atBranch.id}`, { token: staff.token })).status).toBe(404);
    expect(await titles(owner, '')).toEqual(['Staff lunch']);
    expect((await t.request('GET', '/expenses/summary', { token: owner.token })).body.data.total).toBe(6_000);
  });

  it('honours Idempotency-Key on POST /expenses', async () => {
    const owner = await registerOwner(t);
    const key = { 'Idempotency-Key': 'expense-0001' };
    const body = { title: 'Fuel', category: 'Transport', amount: 20_000 };
    const first = await create(owner, body, key);
    const again = await create(owner, body, key);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await create(owner, { ...body, amount: 1 }, key)).status).toBe(422);
    expect(await titles(owner, '')).toEqual(['Fuel']);
  });

  it('expense.create through POST /sync/push: recorded once, the same expense id answers the first', async () => {
    const owner = await registerOwner(t);
    const deviceId = '0194f2c0-0001-7000-8000-00000000e001';
    const reg = await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: deviceId, name: 'Till 1' } });
    expect(reg.status, reg.text).toBe(200);
    const expenseId = '0194f2c0-0002-7000-8000-00000000e002';
    const at = new Date(t.clock.now() - 3_600_000).toISOString();
    const mutation = (id: string, seq: number, payload: Record<string, unknown>) => ({
      id,
      seq,
      type: 'expense.create',
      created_at: at,
      payload,
    });
    const payload = { id: expenseId, title: 'Mafuta ya jenereta', category: 'Utilities', amount: 18_000, payment_method: 'M-Pesa' };
    const push = (mutations: unknown[]) =>
      t.request('POST', '/sync/push', { token: owner.token, body: { device_id: deviceId, mutations } });

    const first = await push([mutation('0194f2c0-0003-7000-8000-00000000e003', 1, payload)]);
    expect(first.status, first.text).toBe(200);
    const res = Envelope(PushResponse).parse(first.body).data;
    expect(res.results[0]).toMatchObject({ status: 'applied', result: { expense_id: expenseId } });
    const got = (await t.request('GET', `/expenses/${expenseId}`, { token: owner.token })).body.data;
    expect(got).toMatchObject({
      id: expenseId,
      title: 'Mafuta ya jenereta',
      amount: 18_000,
      payment_method: 'M-Pesa',
      spent_at: at,
      store_id: owner.storeId,
      created_by: owner.userId,
    });

    const resent = await push([mutation('0194f2c0-0003-7000-8000-00000000e003', 1, payload)]);
    expect(resent.body.data.results[0]).toMatchObject({ status: 'duplicate', result: { expense_id: expenseId } });
    const sameExpense = await push([mutation('0194f2c0-0004-7000-8000-00000000e004', 2, { ...payload, amount: 99 })]);
    expect(sameExpense.body.data.results[0]).toMatchObject({ status: 'applied', result: { expense_id: expenseId } });
    const bad = await push([
      mutation('0194f2c0-0005-7000-8000-00000000e005', 3, { ...payload, id: '0194f2c0-0006-7000-8000-00000000e006', category: 'Food' }),
    ]);
    expect(bad.body.data.results[0]).toMatchObject({ status: 'rejected', error: { code: 'VALIDATION_ERROR' } });
    expect(bad.body.data.results[0].error.message).toContain('payload.category');
    expect(await titles(owner, '')).toEqual(['Mafuta ya jenereta']);
    expect((await t.request('GET', `/expenses/${expenseId}`, { token: owner.token })).body.data.amount).toBe(18_000);
    const futureId = '0194f2c0-0009-7000-8000-00000000e009';
    const future = await push([
      mutation('0194f2c0-000a-7000-8000-00000000e00a', 4, {
        ...payload,
        id: futureId,
        title: 'Clock ahead',
        spent_at: '2099-01-01T00:00:00Z',
      }),
    ]);
    expect(future.body.data.results[0]).toMatchObject({ status: 'applied', result: { expense_id: futureId } });
    expect((await t.request('GET', `/expenses/${futureId}`, { token: owner.token })).body.data.spent_at).toBe(
      new Date(t.clock.now()).toISOString(),
    );

    const other = await registerOwner(t);
    const otherDevice = '0194f2c0-0007-7000-8000-00000000e007';
    await t.request('POST', '/sync/devices', { token: other.token, body: { device_id: otherDevice, name: 'Till 1' } });
    const before = (await t.request('GET', `/expenses/${expenseId}`, { token: owner.token })).body.data;
    const reused = await t.request('POST', '/sync/push', {
      token: other.token,
      body: {
        device_id: otherDevice,
        mutations: [mutation('0194f2c0-0008-7000-8000-00000000e008', 1, { ...payload, title: 'Not yours' })],
      },
    });
    // An expense id is its organisation's (issue 36): another shop's till that uses it records an
    // expense of its own on PostgreSQL, keyed (org_id, id); SQLite keys it by the id alone and
    // refuses it. Either way the first shop's expense is untouched.
    expect(reused.body.data.results[0]).toMatchObject(
      DIALECT === 'postgres'
        ? { status: 'applied', result: { expense_id: expenseId } }
        : { status: 'rejected', error: { code: 'CONFLICT' } },
    );
    expect((await t.request('GET', `/expenses/${expenseId}`, { token: owner.token })).body.data).toEqual(before);
    const theirs = await t.request('GET', `/expenses/${expenseId}`, { token: other.token });
    if (DIALECT === 'postgres') expect(theirs.body.data).toMatchObject({ title: 'Not yours', store_id: other.storeId });
    else expect(theirs.status).toBe(404);
  });
});

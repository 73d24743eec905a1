import { CreditMessage, CreditNote, CreditProfile, CreditTab, Envelope, PagedEnvelope } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, startOfLocalDay } from '../../server/src/lib/time.js';
import { insertCreditSale, lastMessage, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const DAY = 86_400_000;
const TZ = 'Africa/Dar_es_Salaam';
const MISSING = '0190f5a4-0000-7000-8000-000000000000';

describe('credits: tabs, profile, write-off, reminders and notes', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const newCustomer = async (s: Session, body: Record<string, unknown> = {}) => {
    const res = await t.request('POST', '/customers', { token: s.token, body: { name: 'Halima Omari', phone: uniquePhone(), ...body } });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: string; name: string; phone: string | null };
  };
  const sale = (s: Session, customerId: string, total: number, at?: number) =>
    insertCreditSale(t, { orgId: s.orgId, storeId: s.storeId, customerId, total, at });
  const tabs = async (s: Session, query = '') => {
    const res = await t.request('GET', `/credits${query}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return PagedEnvelope(CreditTab).parse(res.body);
  };
  const profile = async (s: Session, customerId: string) => {
    const res = await t.request('GET', `/credits/customers/${customerId}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(CreditProfile).parse(res.body).data;
  };
  const pay = (s: Session, customerId: string, amount: number) =>
    t.request('POST', `/credits/customers/${customerId}/payments`, { token: s.token, body: { amount, method: 'Cash' } });
  const writeOff = (s: Session, tabId: string, reason = 'customer moved away') =>
    t.request('POST', `/credits/${tabId}/write-off`, { token: s.token, body: { reason } });

  it('lists tabs newest first with the design §3 fields, filtered and paged', async () => {
    const owner = await registerOwner(t);
    const a = await newCustomer(owner, { name: 'Asha' });
    const b = await newCustomer(owner, { name: 'Bakari' });
    const now = t.clock.now();
    const old = await sale(owner, a.id, 3_000, now - 45 * DAY);
    const mid = await sale(owner, b.id, 2_000, now - 2 * DAY);
    const recent = await sale(owner, a.id, 1_000, now - DAY);
    expect((await pay(owner, b.id, 500)).status).toBe(200);

    const all = await tabs(owner);
    expect(all.data.map((x) => x.id)).toEqual([recent.tabId, mid.tabId, old.tabId]);
    expect(all.meta).toEqual({ page: 1, page_size: 20, total: 3, total_pages: 1 });
    const dueOld = addDays(localDate(now - 45 * DAY, TZ), 30);
    expect(all.data[2]).toEqual({
      id: old.tabId,
      customer_id: a.id,
      customer_name: 'Asha',
      transaction_id: old.transactionId,
      store_id: owner.storeId,
      amount: 3_000,
      paid_amount: 0,
      balance: 3_000,
      status: 'open',
      due_date: dueOld,
      is_overdue: true,
      created_at: new Date(now - 45 * DAY).toISOString(),
      settled_at: null,
      write_off_reason: null,
    });
    expect(all.data[1]).toMatchObject({ status: 'partially_paid', paid_amount: 500, balance: 1_500, is_overdue: false });

    const ids = async (q: string) => (await tabs(owner, q)).data.map((x) => x.id);
    expect(await ids(`?customer_id=${a.id}`)).toEqual([recent.tabId, old.tabId]);
    expect(await ids('?status=partially_paid')).toEqual([mid.tabId]);
    expect(await ids('?overdue=true')).toEqual([old.tabId]);
    expect(await ids('?overdue=false')).toEqual([recent.tabId, mid.tabId]);
    const page = await tabs(owner, '?page=2&page_size=2');
    expect(page.data.map((x) => x.id)).toEqual([old.tabId]);
    expect(page.meta).toEqual({ page: 2, page_size: 2, total: 3, total_pages: 2 });
    expect((await t.request('GET', '/credits?status=closed', { token: owner.token })).status).toBe(400);
  });

  // Another organisation's customer or tab by id, on every credits route: test/api/access-rules.test.ts.
  it('keeps organisations apart: another organisation’s tabs are not listed, and filtering by its customer is 404', async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const c = await newCustomer(owner);
    const { tabId } = await sale(owner, c.id, 1_000);
    expect((await tabs(other)).data).toEqual([]);
    expect((await t.request('GET', `/credits?customer_id=${c.id}`, { token: other.token })).status).toBe(404);
    expect((await profile(owner, c.id)).tabs[0]).toMatchObject({ id: tabId, status: 'open', balance: 1_000 });
  });

  it('answers a credit profile with tabs, payments, messages, notes and totals', async () => {
    const owner = await registerOwner(t);
    const c = await newCustomer(owner, { name: 'Rehema' });
    const now = t.clock.now();
    const overdueTab = await sale(owner, c.id, 8_000, now - 40 * DAY);
    const currentTab = await sale(owner, c.id, 2_000, now);
    expect((await pay(owner, c.id, 3_000)).status).toBe(200);
    await t.request('POST', `/credits/customers/${c.id}/messages`, {
      token: owner.token,
      body: { kind: 'whatsapp', body: 'Sent a WhatsApp' },
    });
    await t.request('POST', `/credits/customers/${c.id}/notes`, { token: owner.token, body: { body: 'Promised to pay on Friday' } });

    const p = await profile(owner, c.id);
    expect(p.customer).toMatchObject({ id: c.id, name: 'Rehema', outstanding_balance: 7_000 });
    expect(p.total_outstanding).toBe(7_000);
    expect(p.overdue_count).toBe(1);
    expect(p.tabs.map((x) => [x.id, x.balance, x.is_overdue])).toEqual([
      [currentTab.tabId, 2_000, false],
      [overdueTab.tabId, 5_000, true],
    ]);
    expect(p.payments).toHaveLength(1);
    expect(p.payments[0]).toMatchObject({
      amount: 3_000,
      method: 'Cash',
      received_by: owner.userId,
      allocations: [{ tab_id: overdueTab.tabId, amount: 3_000 }],
    });
    expect(p.messages.map((m) => [m.kind, m.status, m.body])).toEqual([['whatsapp', 'logged', 'Sent a WhatsApp']]);
    expect(p.notes.map((n) => [n.body, n.author_id])).toEqual([['Promised to pay on Friday', owner.userId]]);
  });

  it('writes off open and partially paid tabs, and refuses settled or written-off ones (409 INVALID_STATE)', async () => {
    const owner = await registerOwner(t);
    const c = await newCustomer(owner);
    const first = await sale(owner, c.id, 1_000, t.clock.now() - 3000);
    const second = await sale(owner, c.id, 4_000, t.clock.now() - 2000);
    const third = await sale(owner, c.id, 2_500, t.clock.now() - 1000);
    expect((await pay(owner, c.id, 1_500)).status).toBe(200);

    const res = await writeOff(owner, third.tabId, 'shop goodwill');
    expect(res.status, res.text).toBe(200);
    expect(Envelope(CreditTab).parse(res.body).data).toMatchObject({
      id: third.tabId,
      status: 'written_off',
      balance: 0,
      paid_amount: 0,
      amount: 2_500,
      write_off_reason: 'shop goodwill',
      is_overdue: false,
    });
    const partial = await writeOff(owner, second.tabId);
    expect(partial.body.data).toMatchObject({
      status: 'written_off',
      paid_amount: 500,
      balance: 0,
      write_off_reason: 'customer moved away',
    });

    for (const tabId of [first.tabId, second.tabId, third.tabId]) {
      const again = await writeOff(owner, tabId);
      expect(again.status).toBe(409);
      expect(again.body.errors[0].code).toBe('INVALID_STATE');
    }
    expect((await profile(owner, c.id)).total_outstanding).toBe(0);
    const bad = await t.request('POST', `/credits/${first.tabId}/write-off`, { token: owner.token, body: { reason: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('reason');
    const log = await t.db.db
      .selectFrom('change_log')
      .select('entity_id')
      .where('org_id', '=', owner.orgId)
      .where('entity', '=', 'credit_tab')
      .where('entity_id', '=', third.tabId)
      .execute();
    expect(log).toHaveLength(2);
    const audit = await t.db.db.selectFrom('audit_log').select('action').where('entity_id', '=', third.tabId).execute();
    expect(audit).toEqual([{ action: 'credit.write_off' }]);
  });

  it('texts a reminder naming the exact amount owed and the shop, and records it as sent', async () => {
    const owner = await registerOwner(t, {
      shop: { name: 'Duka la Mama Neema', business_type: 'retail', region: 'dar-es-salaam', district: 'Ilala' },
    });
    const c = await newCustomer(owner, { name: 'Selemani' });
    await sale(owner, c.id, 12_000.5);
    await sale(owner, c.id, 5_500);
    const res = await t.request('POST', `/credits/customers/${c.id}/remind`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    const msg = Envelope(CreditMessage).parse(res.body).data;
    expect(msg).toMatchObject({ customer_id: c.id, kind: 'sms', status: 'sent', sent_by: owner.userId });
    const sms = await lastMessage(t, c.phone!);
    expect(sms?.channel).toBe('sms');
    expect(sms?.body).toBe(msg.body);
    expect(sms?.body).toContain('deni lako kwa Duka la Mama Neema ni TZS 17,500.50');
    expect(sms?.body).toContain('you owe Duka la Mama Neema TZS 17,500.50');
    expect((await profile(owner, c.id)).messages.map((m) => m.id)).toEqual([msg.id]);
  });

  it('refuses a reminder when nothing is owed or there is no phone (422), sending nothing', async () => {
    const owner = await registerOwner(t);
    const paidUp = await newCustomer(owner);
    const remind = (id: string) => t.request('POST', `/credits/customers/${id}/remind`, { token: owner.token });
    const nothing = await remind(paidUp.id);
    expect(nothing.status).toBe(422);
    expect(nothing.body.errors[0].code).toBe('BUSINESS_RULE');
    const noPhone = await newCustomer(owner, { phone: null });
    await sale(owner, noPhone.id, 1_000);
    const res = await remind(noPhone.id);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 'BUSINESS_RULE', field: 'phone' });
    expect(await lastMessage(t, paidUp.phone!)).toBeUndefined();
    expect(await t.db.db.selectFrom('credit_messages').select('id').where('org_id', '=', owner.orgId).execute()).toEqual([]);
  });

  it('logs messages and notes, validating kind and body', async () => {
    const owner = await registerOwner(t);
    const c = await newCustomer(owner);
    for (const kind of ['whatsapp', 'call', 'sms'] as const) {
      const res = await t.request('POST', `/credits/customers/${c.id}/messages`, {
        token: owner.token,
        body: { kind, body: `Reached by ${kind}` },
      });
      expect(res.status, res.text).toBe(200);
      expect(Envelope(CreditMessage).parse(res.body).data).toMatchObject({ kind, status: 'logged', body: `Reached by ${kind}` });
    }
    const note = await t.request('POST', `/credits/customers/${c.id}/notes`, { token: owner.token, body: { body: 'Pays at month end' } });
    expect(Envelope(CreditNote).parse(note.body).data).toMatchObject({
      customer_id: c.id,
      body: 'Pays at month end',
      author_id: owner.userId,
    });
    const bad: Array<[string, unknown, string]> = [
      ['messages', { kind: 'email', body: 'x' }, 'kind'],
      ['messages', { kind: 'call', body: ' ' }, 'body'],
      ['notes', {}, 'body'],
    ];
    for (const [path, body, field] of bad) {
      const res = await t.request('POST', `/credits/customers/${c.id}/${path}`, { token: owner.token, body });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe(field);
    }
    expect((await t.request('POST', `/credits/customers/${MISSING}/notes`, { token: owner.token, body: { body: 'x' } })).status).toBe(404);
    expect((await profile(owner, c.id)).messages.map((m) => m.kind)).toEqual(['sms', 'call', 'whatsapp']);
  });

  it('turns a tab overdue at the Dar es Salaam midnight after its due date, not the UTC one', async () => {
    const owner = await registerOwner(t);
    const c = await newCustomer(owner);
    const { tabId } = await sale(owner, c.id, 1_000);
    const due = addDays(localDate(t.clock.now(), TZ), 30);
    const [tab] = (await tabs(owner)).data;
    expect(tab?.due_date).toBe(due);
    const localMidnight = startOfLocalDay(addDays(due, 1), TZ);
    expect(localDate(localMidnight, 'UTC')).toBe(due);

    const moveTo = async (at: number): Promise<Session> => {
      t.clock.advance(at - t.clock.now());
      const login = await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } });
      return { ...owner, token: login.body.data.access_token };
    };
    const state = async (s: Session) => {
      const [row] = (await tabs(s, `?customer_id=${c.id}`)).data;
      const credits = (await t.request('GET', '/customers/credits?overdue=true', { token: s.token })).body.data;
      const overdueIds = (await tabs(s, '?overdue=true')).data.map((x) => x.id);
      return { overdue: row?.is_overdue, listed: credits.length, overdueIds, profileCount: (await profile(s, c.id)).overdue_count };
    };
    expect(await state(await moveTo(localMidnight - 1))).toEqual({ overdue: false, listed: 0, overdueIds: [], profileCount: 0 });
    expect(await state(await moveTo(localMidnight))).toEqual({ overdue: true, listed: 1, overdueIds: [tabId], profileCount: 1 });
  });
});

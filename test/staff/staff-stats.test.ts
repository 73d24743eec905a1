import { Envelope, PageMeta, StaffActivity, StaffKpis, StaffList, StaffStats } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate, startOfLocalDay } from '../../server/src/lib/time.js';
import { e164, insertSale, lastMessage, registerOwner, uniquePhone, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const TZ = 'Africa/Dar_es_Salaam';
const DAY = 86_400_000;

describe('/staff stats, KPIs and activity', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const get = (s: { token: string }, path: string) => t.request('GET', path, { token: s.token });
  /** A staff member added through /staff who has not signed in. */
  const hire = async (owner: Session, body: Record<string, unknown> = {}) => {
    const phone = uniquePhone();
    const res = await t.request('POST', '/staff', {
      token: owner.token,
      body: { first_name: 'Salma', last_name: 'Hassan', phone, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return { id: res.body.data.id as string, phone };
  };
  const signIn = async (phone: string) => {
    const password = (await lastMessage(t, e164(phone)))!.body.match(/temporary password (\S+),/)![1]!;
    const res = await t.request('POST', '/auth/login', { body: { identifier: phone, password } });
    expect(res.status, res.text).toBe(200);
  };
  const startOfToday = () => startOfLocalDay(localDate(t.clock.now(), TZ), TZ);

  describe('GET /staff/:id/stats', () => {
    let owner: Session;
    let cashier: string;
    let colleague: string;

    beforeAll(async () => {
      owner = await registerOwner(t);
      cashier = (await hire(owner)).id;
      t.clock.advance(1000);
      colleague = (await hire(owner, { first_name: 'Musa' })).id;
      t.clock.advance(1000);
      const sale = (cashierId: string | null, total: number, status?: 'paid' | 'credit' | 'refunded' | 'void', discount?: number) =>
        insertSale(t, {
          orgId: owner.orgId,
          storeId: owner.storeId,
          cashierId,
          total,
          status,
          discount,
          paymentMethod: status === 'credit' ? 'Credit' : 'Cash',
          at: t.clock.now() - 40 * DAY,
        });
      await sale(cashier, 1000, 'paid', 50);
      await sale(cashier, 2500.5, 'paid');
      await sale(cashier, 1500, 'credit', 100.25);
      await sale(cashier, 700, 'refunded', 20);
      await sale(cashier, 300, 'refunded');
      await sale(cashier, 999, 'void', 10);
      await sale(colleague, 9999, 'paid', 99);
      await sale(owner.userId, 5000, 'paid', 5);
      await sale(null, 4000, 'paid');
    });

    it("counts only the member's paid and credit sales; refunds apart; voids and others' sales not at all", async () => {
      const res = await get(owner, `/staff/${cashier}/stats`);
      expect(res.status).toBe(200);
      expect(Envelope(StaffStats).parse(res.body).data).toEqual({
        total_sales: 5000.5,
        transaction_count: 3,
        average_ticket: 1666.83,
        refund_count: 2,
        discount_total: 150.25,
      });
      expect((await get(owner, `/staff/${colleague}/stats`)).body.data).toEqual({
        total_sales: 9999,
        transaction_count: 1,
        average_ticket: 9999,
        refund_count: 0,
        discount_total: 99,
      });
    });

    it('answers zeros for a member with no sales', async () => {
      const idle = await hire(owner);
      expect((await get(owner, `/staff/${idle.id}/stats`)).body.data).toEqual({
        total_sales: 0,
        transaction_count: 0,
        average_ticket: 0,
        refund_count: 0,
        discount_total: 0,
      });
    });

    it('adds the same figures to each listed member with include_stats=true', async () => {
      const res = await get(owner, '/staff?include_stats=true&ordering=created_at&size=2');
      const { data } = Envelope(StaffList).parse({ ...res.body, meta: null });
      expect(PageMeta.parse(res.body.meta)).toMatchObject({ page: 1, page_size: 2 });
      expect(data.items.map((u) => [u.id, u.stats?.total_sales, u.stats?.refund_count])).toEqual([
        [cashier, 5000.5, 2],
        [colleague, 9999, 0],
      ]);
      expect((await get(owner, '/staff?include_stats=false')).body.data.items.every((u: object) => !('stats' in u))).toBe(true);
    });

    // Another organisation's staff member, and a staff token: test/api/access-rules.test.ts.
    it("answers 404 for the owner's id", async () => {
      expect((await get(owner, `/staff/${owner.userId}/stats`)).status).toBe(404);
    });
  });

  it("GET /staff/kpis counts today's active staff and their sales in Dar es Salaam time", async () => {
    const owner = await registerOwner(t);
    const other = await registerOwner(t);
    const seller = await hire(owner, { first_name: 'Seller' });
    const visitor = await hire(owner, { first_name: 'Visitor' });
    const manager = await hire(owner, { first_name: 'Manager', role: 'manager' });
    const gone = await hire(owner, { first_name: 'Gone' });
    const outsider = await hire(other, { first_name: 'Outsider' });
    await t.request('DELETE', `/staff/${gone.id}`, { token: owner.token });
    await signIn(visitor.phone);
    const today = startOfToday();
    const sale = (orgId: string, cashierId: string, total: number, at: number, status: 'paid' | 'credit' | 'refunded' | 'void' = 'paid') =>
      insertSale(t, {
        orgId,
        storeId: orgId === owner.orgId ? owner.storeId : other.storeId,
        cashierId,
        total,
        at,
        status,
        paymentMethod: status === 'credit' ? 'Credit' : 'Cash',
      });
    await sale(owner.orgId, seller.id, 1000, today);
    await sale(owner.orgId, seller.id, 500.5, t.clock.now(), 'credit');
    await sale(owner.orgId, seller.id, 800, t.clock.now(), 'void');
    await sale(owner.orgId, visitor.id, 300, t.clock.now(), 'refunded');
    await sale(owner.orgId, manager.id, 7000, today - 1);
    await sale(owner.orgId, owner.userId, 5000, t.clock.now());
    await sale(other.orgId, outsider.id, 6000, t.clock.now());

    const res = await get(owner, '/staff/kpis');
    expect(res.status, res.text).toBe(200);
    expect(Envelope(StaffKpis).parse(res.body).data).toEqual({
      total_staff: 3,
      active_today: 2,
      total_sales_today: 1500.5,
      average_sales_per_staff: 750.25,
    });
    expect((await get(other, '/staff/kpis')).body.data).toEqual({
      total_staff: 1,
      active_today: 1,
      total_sales_today: 6000,
      average_sales_per_staff: 6000,
    });
    const fresh = await registerOwner(t);
    expect((await get(fresh, '/staff/kpis')).body.data).toEqual({
      total_staff: 0,
      active_today: 0,
      total_sales_today: 0,
      average_sales_per_staff: 0,
    });
  });

  it('GET /staff/:id/activity lists a local day oldest first, split at midnight Dar es Salaam time', async () => {
    // Move the clock to 23:58:00 local, whatever the real time of day.
    let target = startOfToday() + DAY - 2 * 60_000;
    if (target <= t.clock.now()) target += DAY;
    t.clock.advance(target - t.clock.now());
    const day1 = localDate(t.clock.now(), TZ);

    const owner = await registerOwner(t);
    const member = await hire(owner, { first_name: 'Imani', last_name: 'Lyimo' });
    const bystander = await hire(owner, { first_name: 'Other' });
    t.clock.advance(30_000);
    await signIn(member.phone);
    await signIn(bystander.phone);
    t.clock.advance(60_000);
    await t.request('PATCH', `/staff/${member.id}/shift`, { token: owner.token, body: { shift: 'evening' } });
    t.clock.advance(29_999);
    await signIn(member.phone);
    t.clock.advance(1);
    await signIn(member.phone);
    t.clock.advance(1000);
    await t.request('PATCH', `/staff/${member.id}/permissions`, { token: owner.token, body: { can_discount: true } });
    const day2 = localDate(t.clock.now(), TZ);

    const before = await get(owner, `/staff/${member.id}/activity?date=${day1}`);
    expect(before.status).toBe(200);
    const first = Envelope(StaffActivity).parse(before.body).data;
    expect(first.date).toBe(day1);
    expect(first.items.map((i) => [i.type, i.time])).toEqual([
      ['user.create', '23:58:00'],
      ['auth.login', '23:58:30'],
      ['staff.shift', '23:59:30'],
      ['auth.login', '23:59:59'],
    ]);
    expect(first.items[2]!.description).toBe('Changed the shift of Imani Lyimo: shift evening');
    expect(first.items[0]!.at).toBe(new Date(target).toISOString());

    const after = (await get(owner, `/staff/${member.id}/activity?date=${day2}`)).body.data;
    expect(after.items.map((i: { type: string; time: string }) => [i.type, i.time])).toEqual([
      ['auth.login', '00:00:00'],
      ['staff.permissions', '00:00:01'],
    ]);
    expect((await get(owner, `/staff/${member.id}/activity`)).body.data).toEqual(after);
    expect((await get(owner, `/staff/${member.id}/activity?date=2000-01-01`)).body.data).toEqual({ date: '2000-01-01', items: [] });

    const bad = await get(owner, `/staff/${member.id}/activity?date=2026-13-45`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('date');
  });
});

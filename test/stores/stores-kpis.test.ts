import { Envelope, StoreList, StoreStats, StoreWeek, type StoreWithKpis } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, insertSale, registerOwner, uniquePhone, type SaleRow, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Dar es Salaam is UTC+3 all year. */
const EAT = 3 * HOUR;
const darDate = (ms: number) => new Date(ms + EAT).toISOString().slice(0, 10);

describe('/stores live figures', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  /** Move the clock forward to the next `weekday` (0 Sunday … 6 Saturday), at least a day ahead, at hh:mm in Dar es Salaam. */
  function moveTo(weekday: number, hh: number, mm = 0): number {
    const now = t.clock.now();
    const todayStart = Math.floor((now + EAT) / DAY) * DAY - EAT;
    let day = todayStart + DAY;
    while (new Date(day + EAT).getUTCDay() !== weekday) day += DAY;
    const target = day + hh * HOUR + mm * MINUTE;
    t.clock.advance(target - now);
    return target;
  }
  /** Access tokens live 15 minutes of the test clock: renew after moving it further. */
  async function renew(s: Session) {
    const res = await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh } });
    expect(res.status, res.text).toBe(200);
    s.token = res.body.data.access_token;
    s.refresh = res.body.data.refresh_token;
  }
  const get = (s: Session, path: string) => t.request('GET', path, { token: s.token });
  const sale = (owner: Session, storeId: string, total: number, at: number, status: SaleRow['status'] = 'paid') =>
    insertSale(t, { orgId: owner.orgId, storeId, total, at, status, paymentMethod: status === 'credit' ? 'Credit' : 'Cash' });
  async function kpis(s: Session, query = '') {
    const res = await get(s, `/stores${query}`);
    expect(res.status, res.text).toBe(200);
    const { items, count } = Envelope(StoreList).parse(res.body).data;
    expect(count).toBe(items.length);
    return items;
  }
  const figures = (items: StoreWithKpis[]) => items.map((s) => [s.name, s.today_sales, s.today_transactions, s.staff_on_duty]);
  /** A user of the owner's organisation with a shift (set directly: the staff routes come with the staff issue). */
  async function addUser(
    owner: Session,
    first_name: string,
    set: { shift: string | null; store_id?: string; role?: string; employment_status?: string; is_active?: number },
  ) {
    const { shift, store_id, role, ...rest } = set;
    const res = await t.request('POST', '/accounts/users', {
      token: owner.token,
      body: { first_name, last_name: 'Test', phone: uniquePhone(), role: role ?? 'staff', store_id },
    });
    expect(res.status, res.text).toBe(200);
    await t.db.db
      .updateTable('users')
      .set({ shift, ...rest })
      .where('id', '=', res.body.data.id)
      .execute();
  }

  it("lists every store with today's paid and credit sales; refunds, voids, yesterday and other shops do not count", async () => {
    const now = moveTo(3, 10);
    const midnight = now - 10 * HOUR;
    const owner = await registerOwner(t);
    t.clock.advance(1);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
    t.clock.advance(1);
    const quiet = await addStore(t, owner.orgId, 'Mbezi Branch');
    const other = await registerOwner(t);

    await sale(owner, owner.storeId, 12_500.5, midnight + 8 * HOUR + 15 * MINUTE);
    await sale(owner, owner.storeId, 7_000, now - HOUR, 'credit');
    await sale(owner, owner.storeId, 3_000, now - 2 * HOUR, 'refunded');
    await sale(owner, owner.storeId, 4_000, now - 3 * HOUR, 'void');
    await sale(owner, owner.storeId, 9_999, midnight - 30 * MINUTE);
    await sale(owner, branch.id, 1_250.25, midnight);
    await sale(owner, branch.id, 800, midnight - 1);
    await sale(other, other.storeId, 50_000, now - HOUR);

    const items = await kpis(owner);
    expect(figures(items)).toEqual([
      ['Mama Asha Duka', 19_500.5, 2, 1],
      ['Kariakoo Branch', 1_250.25, 1, 0],
      ['Mbezi Branch', 0, 0, 0],
    ]);
    expect(items.map((s) => s.id)).toEqual([owner.storeId, branch.id, quiet.id]);
    expect(items[0]).toMatchObject({ code: 'MAD', status: 'open', is_active: true, vat_enabled: false });

    const stats = await get(owner, '/stores/stats');
    expect(Envelope(StoreStats).parse(stats.body).data).toEqual({
      total_stores: 3,
      active_stores: 3,
      total_sales_today: 20_750.75,
      total_staff: 0,
    });
    expect(figures(await kpis(other))).toEqual([['Mama Asha Duka', 50_000, 1, 1]]);
  });

  it('filters by status (open, closed, busy) and by active or inactive, keeping the figures', async () => {
    const now = moveTo(3, 10);
    const owner = await registerOwner(t);
    const busy = await addStore(t, owner.orgId, 'Kariakoo Branch');
    const gone = await addStore(t, owner.orgId, 'Mbezi Branch');
    expect((await t.request('PATCH', `/stores/${busy.id}/status`, { token: owner.token, body: { status: 'busy' } })).status).toBe(200);
    expect((await t.request('DELETE', `/stores/${gone.id}`, { token: owner.token })).status).toBe(200);
    await sale(owner, busy.id, 2_000, now - MINUTE);
    await sale(owner, gone.id, 300, now - 2 * HOUR);

    expect(figures(await kpis(owner, '?status=busy'))).toEqual([['Kariakoo Branch', 2_000, 1, 0]]);
    expect((await kpis(owner, '?status=closed')).length).toBe(0);
    expect((await kpis(owner, '?status=inactive')).map((s) => [s.name, s.is_active, s.today_sales])).toEqual([
      ['Mbezi Branch', false, 300],
    ]);
    expect((await kpis(owner, '?status=active')).map((s) => s.id).sort()).toEqual([owner.storeId, busy.id].sort());
    expect((await kpis(owner)).length).toBe(3);
    const bad = await get(owner, '/stores?status=sleeping');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'status' })]);
    expect(Envelope(StoreStats).parse((await get(owner, '/stores/stats')).body).data).toMatchObject({
      total_stores: 3,
      active_stores: 2,
      total_sales_today: 2_300,
    });
  });

  it('counts the day in Dar es Salaam: a sale at 20:59 UTC is that day, one at 21:00 UTC is the next', async () => {
    const lateEvening = moveTo(3, 23, 59);
    expect(new Date(lateEvening).toISOString()).toMatch(/T20:59:00\.000Z$/);
    t.clock.advance(30_000);
    const owner = await registerOwner(t);
    await sale(owner, owner.storeId, 4_500, lateEvening);
    expect(figures(await kpis(owner))).toEqual([['Mama Asha Duka', 4_500, 1, 0]]);

    t.clock.advance(MINUTE);
    const midnight = lateEvening + MINUTE;
    expect(new Date(midnight).toISOString()).toMatch(/T21:00:00\.000Z$/);
    await sale(owner, owner.storeId, 2_000, midnight);
    expect(figures(await kpis(owner))).toEqual([['Mama Asha Duka', 2_000, 1, 0]]);
    expect((await get(owner, '/stores/stats')).body.data.total_sales_today).toBe(2_000);

    const week = Envelope(StoreWeek).parse((await get(owner, `/stores/${owner.storeId}/week`)).body).data;
    expect(week.slice(-2)).toEqual([
      { date: darDate(lateEvening), sales: 4_500, transactions: 1 },
      { date: darDate(midnight), sales: 2_000, transactions: 1 },
    ]);
  });

  it('gives the last 7 local days oldest first, with zero days, counting only this store’s paid and credit sales', async () => {
    const now = moveTo(3, 10);
    const midnight = now - 10 * HOUR;
    const owner = await registerOwner(t);
    const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
    await sale(owner, owner.storeId, 1_500, now - HOUR);
    await sale(owner, owner.storeId, 2_500.75, midnight + MINUTE, 'credit');
    await sale(owner, owner.storeId, 999, now - 2 * HOUR, 'refunded');
    await sale(owner, owner.storeId, 3_200, midnight - 2 * DAY + 14 * HOUR);
    await sale(owner, owner.storeId, 1_000, midnight - 3 * DAY + 9 * HOUR, 'void');
    await sale(owner, owner.storeId, 700, midnight - 6 * DAY);
    await sale(owner, owner.storeId, 5_000, midnight - 6 * DAY - 1);
    await sale(owner, branch.id, 8_888, now - HOUR);

    const res = await get(owner, `/stores/${owner.storeId}/week`);
    expect(res.status).toBe(200);
    const day = (k: number) => darDate(now + k * DAY);
    expect(Envelope(StoreWeek).parse(res.body).data).toEqual([
      { date: day(-6), sales: 700, transactions: 1 },
      { date: day(-5), sales: 0, transactions: 0 },
      { date: day(-4), sales: 0, transactions: 0 },
      { date: day(-3), sales: 0, transactions: 0 },
      { date: day(-2), sales: 3_200, transactions: 1 },
      { date: day(-1), sales: 0, transactions: 0 },
      { date: day(0), sales: 4_000.75, transactions: 2 },
    ]);
    expect(day(0)).toBe(darDate(now));

    const branchWeek = (await get(owner, `/stores/${branch.id}/week`)).body.data;
    expect(branchWeek.map((d: { sales: number }) => d.sales)).toEqual([0, 0, 0, 0, 0, 0, 8_888]);
    const empty = await addStore(t, owner.orgId, 'Mbezi Branch');
    const emptyWeek = (await get(owner, `/stores/${empty.id}/week`)).body.data;
    expect(emptyWeek).toEqual([-6, -5, -4, -3, -2, -1, 0].map((k) => ({ date: day(k), sales: 0, transactions: 0 })));
  });

  describe('staff on duty', () => {
    it('counts active staff whose shift covers the local time: morning 06-14, evening 14-22, full day 06-22, weekend all Saturday and Sunday', async () => {
      moveTo(3, 10);
      const owner = await registerOwner(t);
      const branch = await addStore(t, owner.orgId, 'Kariakoo Branch');
      const other = await registerOwner(t);
      await addUser(owner, 'Amina', { shift: 'morning' });
      await addUser(owner, 'Baraka', { shift: 'evening' });
      await addUser(owner, 'Kassim', { shift: 'evening' });
      await addUser(owner, 'Chausiku', { shift: 'weekend' });
      await addUser(owner, 'Daudi', { shift: 'morning', employment_status: 'on_leave' });
      await addUser(owner, 'Eliya', { shift: 'morning', is_active: 0 });
      await addUser(owner, 'Fatuma', { shift: 'full_day', role: 'manager' });
      await addUser(owner, 'Gift', { shift: 'morning', store_id: branch.id });
      await addUser(owner, 'Lulu', { shift: 'morning', store_id: branch.id });
      await addUser(owner, 'Halima', { shift: 'evening', store_id: branch.id });
      await addUser(owner, 'Idd', { shift: null, store_id: branch.id });
      await addUser(other, 'Juma', { shift: 'morning' });

      const onDuty = async () => (await kpis(owner)).map((s) => s.staff_on_duty);
      // The owner registers on the full-day shift.
      expect(await onDuty()).toEqual([3, 2]);
      t.clock.advance(4 * HOUR - 1);
      await renew(owner);
      expect(await onDuty()).toEqual([3, 2]);
      t.clock.advance(1);
      expect(await onDuty()).toEqual([4, 1]);
      t.clock.advance(8 * HOUR);
      await renew(owner);
      expect(await onDuty()).toEqual([0, 0]);
      moveTo(6, 3);
      await renew(owner);
      expect(await onDuty()).toEqual([1, 0]);
      moveTo(0, 12);
      await renew(owner);
      expect(await onDuty()).toEqual([4, 2]);
      await renew(other);
      expect(figures(await kpis(other))).toEqual([['Mama Asha Duka', 0, 0, 2]]);
    });

    it('stats count active staff and managers, not the owner or deactivated accounts', async () => {
      moveTo(3, 10);
      const owner = await registerOwner(t);
      await addUser(owner, 'Amina', { shift: 'morning' });
      await addUser(owner, 'Fatuma', { shift: 'full_day', role: 'manager' });
      await addUser(owner, 'Daudi', { shift: 'morning', employment_status: 'on_leave' });
      await addUser(owner, 'Eliya', { shift: 'morning', is_active: 0 });
      const stats = await get(owner, '/stores/stats');
      expect(stats.body.data).toEqual({ total_stores: 1, active_stores: 1, total_sales_today: 0, total_staff: 3 });
    });
  });
});

import { newId } from '@duka/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneChangeLog } from '../../server/src/sync/pull/services/prune.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/**
 * The daily rollups behind analytics stay exact when the ledger changes after they were read:
 * late offline sales for past days, refunds and voids of old sales, a new time zone, a pruned
 * change log, and two requests refreshing at once. Each shop is its own organisation; prices
 * A 3,000 (cost 2,000) and B 1,500 (cost 1,000), TZS; Dar es Salaam is UTC+3.
 */
describe('analytics rollups', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const local = (s: string) => Date.parse(`${s}:00+03:00`);
  const setClock = (ms: number) => t.clock.advance(ms - t.clock.now());
  const login = async (s: Session) => {
    const res = await t.request('POST', '/auth/login', { body: { identifier: s.phone, password: s.password } });
    expect(res.status, res.text).toBe(200);
    s.token = res.body.data.access_token;
  };
  const get = async (s: Session, path: string) => {
    const res = await t.request('GET', path, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };

  async function shop(at: string) {
    setClock(local(at));
    const owner = await registerOwner(t);
    const ids: Record<'A' | 'B', string> = { A: '', B: '' };
    for (const [key, body] of [
      ['A', { name: 'Sukari 1kg', selling_price: 3000, cost_price: 2000, stock: 500 }],
      ['B', { name: 'Sabuni', selling_price: 1500, cost_price: 1000, stock: 500 }],
    ] as const) {
      const res = await t.request('POST', '/inventory/products', { token: owner.token, body });
      expect(res.status, res.text).toBe(200);
      ids[key] = res.body.data.id;
    }
    const sell = async (lines: Array<['A' | 'B', number]>, payment_method = 'Cash') => {
      const res = await t.request('POST', '/pos/sale', {
        token: owner.token,
        body: { lines: lines.map(([p, qty]) => ({ product_id: ids[p], qty })), payment_method },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string;
    };
    return { owner, ids, sell };
  }

  const rollupRows = async (orgId: string) => {
    const r = await t.db.db
      .selectFrom('sales_daily')
      .select((eb) => [
        eb.fn.countAll<number>().as('rows'),
        eb.fn.sum<number>('sales_count').as('sales'),
        eb.fn.sum<number>('revenue').as('revenue'),
      ])
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    const p = await t.db.db
      .selectFrom('sales_daily_products')
      .select((eb) => eb.fn.sum<number>('qty').as('qty'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    return { rows: Number(r.rows), sales: Number(r.sales ?? 0), revenue: Number(r.revenue ?? 0), qty: Number(p.qty ?? 0) };
  };

  it('a late offline sale for a day 20 days ago is in summary, trend and top products read after it arrived', async () => {
    const { owner, ids, sell } = await shop('2026-06-20T12:00');
    await sell([['A', 2]]);
    const RANGE = 'date_from=2026-05-21&date_to=2026-06-20';
    expect(await get(owner, `/analytics/summary?${RANGE}`)).toMatchObject({
      revenue: 6000,
      transaction_count: 1,
      profit: 2000,
      items_sold: 2,
    });
    await get(owner, `/analytics/trend?${RANGE}`);
    await get(owner, `/analytics/top-products?${RANGE}`);

    const device = await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: newId(), name: 'Till 1' } });
    expect(device.status, device.text).toBe(200);
    const pushed = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: {
        device_id: device.body.data.device_id,
        mutations: [
          {
            id: newId(),
            seq: 1,
            type: 'sale.create',
            created_at: new Date(local('2026-05-31T10:00')).toISOString(),
            payload: {
              id: newId(),
              client_receipt_number: 'OFF-T1-1',
              lines: [{ product_id: ids.B, qty: 3, unit_price: 1500 }],
              payment_method: 'M-Pesa',
            },
          },
        ],
      },
    });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.data.results[0].status).toBe('applied');

    expect(await get(owner, `/analytics/summary?${RANGE}`)).toMatchObject({
      revenue: 10500,
      transaction_count: 2,
      profit: 3500,
      cost: 7000,
      items_sold: 5,
      average_ticket: 5250,
    });
    const trend = (await get(owner, `/analytics/trend?${RANGE}`)).trend as Array<{ date: string; revenue: number; count: number }>;
    expect(trend.filter((d) => d.count > 0)).toEqual([
      { date: '2026-05-31', revenue: 4500, count: 1 },
      { date: '2026-06-20', revenue: 6000, count: 1 },
    ]);
    expect((await get(owner, `/analytics/top-products?${RANGE}`)).top_products).toEqual([
      { product_id: ids.A, name: 'Sukari 1kg', unit: 'piece', qty_sold: 2, revenue: 6000, profit: 2000 },
      { product_id: ids.B, name: 'Sabuni', unit: 'piece', qty_sold: 3, revenue: 4500, profit: 1500 },
    ]);
    expect((await get(owner, `/analytics/payment-mix?${RANGE}`)).payment_mix).toEqual({
      Cash: 6000,
      'M-Pesa': 4500,
      'Tigo Pesa': 0,
      'Airtel Money': 0,
      Bank: 0,
      Credit: 0,
    });
  });

  it('a refund and a void of sales from a past day, made after analytics were read, count on the sale’s day', async () => {
    const { owner, sell } = await shop('2026-06-17T09:00');
    const refunded = await sell([['A', 1]]);
    const voided = await sell([['B', 2]], 'M-Pesa');
    await sell([
      ['A', 1],
      ['B', 1],
    ]);
    setClock(local('2026-06-20T12:00'));
    await login(owner);
    const DAY = 'date_from=2026-06-17&date_to=2026-06-17';
    expect(await get(owner, `/analytics/summary?${DAY}`)).toMatchObject({
      revenue: 10500,
      transaction_count: 3,
      refund_count: 0,
      void_count: 0,
    });

    expect(
      (await t.request('POST', `/pos/transactions/${refunded}/refund`, { token: owner.token, body: { reason: 'returned' } })).status,
    ).toBe(200);
    expect(
      (await t.request('POST', `/pos/transactions/${voided}/void`, { token: owner.token, body: { reason: 'wrong till' } })).status,
    ).toBe(200);

    expect(await get(owner, `/analytics/summary?${DAY}`)).toMatchObject({
      revenue: 4500,
      transaction_count: 1,
      profit: 1500,
      items_sold: 2,
      refund_count: 1,
      refund_total: 3000,
      void_count: 1,
      void_total: 3000,
    });
    // The refund was made on 06-20, but it is the 06-17 sale that no longer counts.
    const week = await get(owner, '/analytics/sales?date_from=2026-06-17&date_to=2026-06-20');
    expect(week.by_day.map((d: { revenue: number }) => d.revenue)).toEqual([4500, 0, 0, 0]);
    expect(week.by_payment_method.find((m: { method: string }) => m.method === 'M-Pesa')).toEqual({
      method: 'M-Pesa',
      revenue: 0,
      count: 0,
    });
    expect(await get(owner, '/analytics/summary?date_from=2026-06-20&date_to=2026-06-20')).toMatchObject({
      revenue: 0,
      refund_count: 0,
      void_count: 0,
    });
  });

  it('a new time zone cuts the days anew: a sale at 22:30 UTC moves to the UTC day', async () => {
    const { owner, sell } = await shop('2026-06-09T12:00');
    setClock(Date.parse('2026-06-10T22:30:00Z'));
    await login(owner);
    await sell([['A', 1]]);
    setClock(Date.parse('2026-06-12T09:00:00Z'));
    await login(owner);
    const RANGE = 'date_from=2026-06-09&date_to=2026-06-12';
    const counts = async () =>
      ((await get(owner, `/analytics/trend?${RANGE}`)).trend as Array<{ date: string; count: number }>).map((d) => [d.date, d.count]);
    expect(await counts()).toEqual([
      ['2026-06-09', 0],
      ['2026-06-10', 0],
      ['2026-06-11', 1],
      ['2026-06-12', 0],
    ]);
    const patched = await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { timezone: 'UTC' } });
    expect(patched.status, patched.text).toBe(200);
    expect(await counts()).toEqual([
      ['2026-06-09', 0],
      ['2026-06-10', 1],
      ['2026-06-11', 0],
      ['2026-06-12', 0],
    ]);
    expect(await get(owner, '/analytics/summary?date_from=2026-06-10&date_to=2026-06-10')).toMatchObject({
      revenue: 3000,
      transaction_count: 1,
    });
  });

  it('after the change log was pruned past what the rollups hold, they are rebuilt and exact', async () => {
    const { owner, sell } = await shop('2026-06-01T10:00');
    await sell([['A', 1]]);
    const RANGE = 'date_from=2026-06-01&date_to=2026-06-01';
    expect(await get(owner, `/analytics/summary?${RANGE}`)).toMatchObject({ revenue: 3000, transaction_count: 1 });
    // Sold after the rollups were read: only the change log tells, and it is about to be pruned.
    await sell([['B', 2]], 'Bank');
    setClock(local('2026-07-05T10:00'));
    const pruned = await pruneChangeLog(t.deps);
    expect(pruned.deleted).toBeGreaterThan(0);
    const floor = await t.db.db
      .selectFrom('change_log_floor')
      .select('version')
      .where('org_id', '=', owner.orgId)
      .executeTakeFirstOrThrow();
    const state = await t.db.db
      .selectFrom('analytics_rollup_state')
      .select('version')
      .where('org_id', '=', owner.orgId)
      .executeTakeFirstOrThrow();
    expect(Number(floor.version)).toBeGreaterThan(Number(state.version));
    await login(owner);
    expect(await get(owner, `/analytics/summary?${RANGE}`)).toMatchObject({
      revenue: 6000,
      transaction_count: 2,
      profit: 2000,
      items_sold: 3,
    });
    expect((await get(owner, `/analytics/payment-mix?${RANGE}`)).payment_mix).toMatchObject({ Cash: 3000, Bank: 3000 });
  });

  it('two summaries at once right after many sales: both exact, the rollups not doubled', async () => {
    const { owner, sell } = await shop('2026-06-18T09:00');
    await sell([['A', 1]]);
    const RANGE = 'date_from=2026-06-18&date_to=2026-06-19';
    expect(await get(owner, `/analytics/summary?${RANGE}`)).toMatchObject({ revenue: 3000, transaction_count: 1 });
    for (let i = 0; i < 12; i++)
      await sell([
        ['A', 1],
        ['B', 1],
      ]);
    setClock(local('2026-06-19T09:00'));
    await login(owner);
    for (let i = 0; i < 12; i++) await sell([['B', 2]], 'M-Pesa');
    const both = await Promise.all([0, 1].map(() => t.request('GET', `/analytics/summary?${RANGE}`, { token: owner.token })));
    for (const res of both) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({
        revenue: 3000 + 12 * 4500 + 12 * 3000,
        transaction_count: 25,
        items_sold: 1 + 24 + 24,
        profit: 1000 + 12 * 1500 + 12 * 1000,
      });
    }
    // One row per day, method and cashier: 06-18 Cash, 06-19 M-Pesa.
    expect(await rollupRows(owner.orgId)).toEqual({ rows: 2, sales: 25, revenue: (3000 + 12 * 4500 + 12 * 3000) * 100, qty: 49 });
    const again = await get(owner, `/analytics/summary?${RANGE}`);
    expect(again.transaction_count).toBe(25);
    expect(await rollupRows(owner.orgId)).toMatchObject({ rows: 2, sales: 25 });
  });

  it('an unchanged organisation is read without rewriting the rollups', async () => {
    const { owner, sell } = await shop('2026-06-18T09:00');
    await sell([['A', 1]]);
    await get(owner, '/analytics/summary');
    const before = await t.db.db
      .selectFrom('analytics_rollup_state')
      .selectAll()
      .where('org_id', '=', owner.orgId)
      .executeTakeFirstOrThrow();
    // A row changed behind the rollups' back (no change-log entry) stays unseen: proof that nothing was recomputed.
    await sql`update transactions set total = total + 100 where org_id = ${owner.orgId}`.execute(t.db.db);
    expect(await get(owner, '/analytics/summary')).toMatchObject({ revenue: 3000 });
    expect(
      await t.db.db.selectFrom('analytics_rollup_state').selectAll().where('org_id', '=', owner.orgId).executeTakeFirstOrThrow(),
    ).toEqual(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as rollupsInUnits } from '../../migrations/2026_12_01_0043_rollups_in_units.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/**
 * Issue 51: analytics and summaries of measured products, in their unit. One day in Dar es Salaam,
 * 2026-04-02, four sales worked out by hand (TZS; cost of a measured line rounded half up to the
 * shilling once per line, as its price is):
 *
 *  10:00  Sukari 0.5 kg at 3,200/kg (cost 2,800/kg)               1,600  cost 1,400
 *  11:00  Mchele 0.333 kg at 2,000/kg (cost 1,500/kg: 499.50)        666  cost   500
 *         + Sabuni × 2 at 1,500 (cost 1,000)                       3,000  cost 2,000
 *  12:00  Mchele 0.333 kg                                            666  cost   500
 *  13:00  Soda: one carton of 24 at 22,000 (cost 700 a bottle)    22,000  cost 16,800
 *
 *  revenue 27,932, cost 21,200, profit 6,732; items 1 + 1 + 2 + 1 + 24 = 29 (pieces, and one per
 *  measured line: 0.5 kg is one item, never 500).
 */
describe('analytics in the product’s unit', () => {
  let t: TestApp;
  let owner: Session;
  const ids: Record<string, string> = {};
  const local = (s: string) => Date.parse(`${s}:00+03:00`);
  const get = async (path: string) => {
    const res = await t.request('GET', path, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const sell = async (lines: Array<Record<string, unknown>>) => {
    const res = await t.request('POST', '/pos/sale', { token: owner.token, body: { lines, payment_method: 'Cash' } });
    expect(res.status, res.text).toBe(201);
  };
  const at = async (when: string) => {
    t.clock.advance(local(when) - t.clock.now());
    const res = await t.request('POST', '/auth/refresh', { body: { refresh_token: owner.refresh } });
    expect(res.status, res.text).toBe(200);
    owner.token = res.body.data.access_token;
    owner.refresh = res.body.data.refresh_token;
  };

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.advance(local('2026-04-02T08:00') - t.clock.now());
    owner = await registerOwner(t);
    for (const [key, body] of [
      ['sugar', { name: 'Sukari', unit: 'kg', selling_price: 3200, cost_price: 2800, stock: 10 }],
      ['rice', { name: 'Mchele', unit: 'kg', selling_price: 2000, cost_price: 1500, stock: 10 }],
      ['soap', { name: 'Sabuni', selling_price: 1500, cost_price: 1000, stock: 100 }],
      [
        'soda',
        { name: 'Soda', selling_price: 1000, cost_price: 700, stock: 48, packs: [{ name: 'Carton', units: 24, selling_price: 22000 }] },
      ],
    ] as const) {
      const res = await t.request('POST', '/inventory/products', { token: owner.token, body });
      expect(res.status, res.text).toBe(200);
      ids[key] = res.body.data.id;
      if (key === 'soda') ids.carton = res.body.data.packs[0].id;
    }
    await at('2026-04-02T10:00');
    await sell([{ product_id: ids.sugar, qty: 0.5 }]);
    await at('2026-04-02T11:00');
    await sell([
      { product_id: ids.rice, qty: 0.333 },
      { product_id: ids.soap, qty: 2 },
    ]);
    await at('2026-04-02T12:00');
    await sell([{ product_id: ids.rice, qty: 0.333 }]);
    await at('2026-04-02T13:00');
    await sell([{ product_id: ids.soda, pack_id: ids.carton, qty: 1 }]);
    await at('2026-04-02T15:00');
  });
  afterAll(() => t.close());

  const day = 'date_from=2026-04-02&date_to=2026-04-02';
  const totals = { revenue: 27932, cost: 21200, profit: 6732, items_sold: 29, transaction_count: 4 };

  it('summary (from the daily rollups): cost per line in the unit, items never adding grams to pieces', async () => {
    expect(await get(`/analytics/summary?${day}`)).toMatchObject({ ...totals, margin_pct: 24.1 });
    const overview = await get(`/analytics/overview?${day}&sections=kpis`);
    expect(overview.kpis).toMatchObject(totals);
    const sales = await get(`/analytics/sales?${day}`);
    expect(sales.totals).toMatchObject(totals);
    expect(sales.by_day).toEqual([{ date: '2026-04-02', revenue: 27932, count: 4, profit: 6732 }]);
  });

  it('dashboard (from the ledger) and the POS summary agree', async () => {
    const dash = await get('/analytics/dashboard');
    expect(dash.today).toMatchObject({ revenue: 27932, profit: 6732, items_sold: 29, transaction_count: 4 });
    expect(await get('/pos/summary')).toMatchObject({ total_sales: 27932, transaction_count: 4, items_sold: 29 });
  });

  it('migration 0043: rollups built by the old rule (grams as items, cost ×1000) are rebuilt; a pieces-only shop’s are left', async () => {
    const shop = await registerOwner(t);
    const soap = await t.request('POST', '/inventory/products', {
      token: shop.token,
      body: { name: 'Sabuni', selling_price: 1500, stock: 5 },
    });
    const sale = { lines: [{ product_id: soap.body.data.id, qty: 2 }], payment_method: 'Cash' };
    expect((await t.request('POST', '/pos/sale', { token: shop.token, body: sale })).status).toBe(201);
    expect((await t.request('GET', `/analytics/summary?${day}`, { token: shop.token })).body.data.items_sold).toBe(2);
    expect(await get(`/analytics/summary?${day}`)).toMatchObject(totals);
    // What the rollups held when built before: Σ counts as items, counts × price per kg as cost.
    const db = t.db.db;
    await db.updateTable('sales_daily').set({ items: 1192, cost: 2_221_200_000 }).where('org_id', '=', owner.orgId).execute();
    await db
      .updateTable('sales_daily_products')
      .set({ cost: 140_000_000 })
      .where('org_id', '=', owner.orgId)
      .where('product_id', '=', ids.sugar!)
      .execute();
    expect((await get(`/analytics/summary?${day}`)).items_sold).toBe(1192);
    const stateOf = async (orgId: string) =>
      (await db.selectFrom('analytics_rollup_state').select('time_zone').where('org_id', '=', orgId).executeTakeFirstOrThrow()).time_zone;
    await rollupsInUnits(db);
    expect([await stateOf(owner.orgId), await stateOf(shop.orgId)]).toEqual([null, 'Africa/Dar_es_Salaam']);
    expect(await get(`/analytics/summary?${day}`)).toMatchObject(totals);
    expect((await get(`/analytics/top-products?${day}`)).top_products[2]).toMatchObject({ name: 'Sukari', profit: 200 });
    expect(await stateOf(owner.orgId)).toBe('Africa/Dar_es_Salaam');
  });

  it('per product: quantity sold in the unit, cost rounded per line', async () => {
    const top = await get(`/analytics/top-products?${day}`);
    expect(top.top_products).toEqual([
      { product_id: ids.soda, name: 'Soda', unit: 'piece', qty_sold: 24, revenue: 22000, profit: 5200 },
      { product_id: ids.soap, name: 'Sabuni', unit: 'piece', qty_sold: 2, revenue: 3000, profit: 1000 },
      { product_id: ids.sugar, name: 'Sukari', unit: 'kg', qty_sold: 0.5, revenue: 1600, profit: 200 },
      // Two lines of 499.50 cost 500 each: 1,000, not 999.
      { product_id: ids.rice, name: 'Mchele', unit: 'kg', qty_sold: 0.666, revenue: 1332, profit: 332 },
    ]);
    const report = await get(`/analytics/products?${day}&sort=name`);
    expect(report.items.map((p: Record<string, unknown>) => [p.name, p.unit, p.qty_sold, p.revenue, p.cost, p.profit, p.stock])).toEqual([
      ['Mchele', 'kg', 0.666, 1332, 1000, 332, 9.334],
      ['Sabuni', 'piece', 2, 3000, 2000, 1000, 98],
      ['Soda', 'piece', 24, 22000, 16800, 5200, 24],
      ['Sukari', 'kg', 0.5, 1600, 1400, 200, 9.5],
    ]);
  });
});

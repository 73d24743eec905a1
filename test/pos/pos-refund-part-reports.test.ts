import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/**
 * Issue 51: every report follows a refund of part of a sale (docs/reports-and-analytics.md
 * "Refunds"). One day in Dar es Salaam, 2026-04-02, the store charging VAT (18 %, inside the price):
 *
 *  10:00  sale A: Sukari 1.25 kg at 3,250/kg (cost 2,800/kg)   4,063  VAT   619.78  cost  3,500
 *                 + a crate at 12,500 (cost 10,000)           12,500  VAT 1,906.78  cost 10,000
 *                 Cash, customer Neema                        16,563
 *  11:00  sale B: a crate, Cash                               12,500  VAT 1,906.78
 *  11:30  sale B refunded whole (as before: out of every sum, counted with the refunds)
 *  12:00  0.25 kg of sale A's sugar back: 813, its VAT share 619.78 × 0.25 / 1.25 = 123.96
 *
 * So the day sold 15,750 (16,563 − 813) in one sale, VAT 2,402.60 (619.78 + 1,906.78 − 123.96),
 * 1 kg of sugar and one crate (2 items), cost 2,800 + 10,000 = 12,800, profit 15,750 − 2,402.60 −
 * 12,800 = 547.40; refunds: 2 (B whole, A in part) giving back 12,500 + 813 = 13,313. The partial
 * refund counts on its sale's day, as a whole refund does (here the same day).
 */
describe('a partial refund in every report', () => {
  let t: TestApp;
  let owner: Session;
  const ids: Record<string, string> = {};
  const local = (s: string) => Date.parse(`${s}:00+03:00`);
  const call = async (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => {
    const res = await t.request(method, path, { token: owner.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  const at = async (when: string) => {
    t.clock.advance(local(when) - t.clock.now());
    const res = await t.request('POST', '/auth/refresh', { body: { refresh_token: owner.refresh } });
    expect(res.status, res.text).toBe(200);
    owner.token = res.body.data.access_token;
    owner.refresh = res.body.data.refresh_token;
  };
  const day = 'date_from=2026-04-02&date_to=2026-04-02';

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.advance(local('2026-04-02T08:00') - t.clock.now());
    owner = await registerOwner(t);
    await call('PATCH', `/stores/${owner.storeId}`, { vat_enabled: true });
    ids.sugar = (
      await call('POST', '/inventory/products', {
        name: 'Sukari',
        unit: 'kg',
        selling_price: 3250,
        cost_price: 2800,
        tax_rate: 18,
        stock: 10,
      })
    ).id;
    ids.crate = (
      await call('POST', '/inventory/products', { name: 'Kreti la soda', selling_price: 12500, cost_price: 10000, tax_rate: 18, stock: 10 })
    ).id;
    ids.neema = (await call('POST', '/customers', { name: 'Neema' })).id;
    await at('2026-04-02T10:00');
    const a = await call('POST', '/pos/sale', {
      lines: [
        { product_id: ids.sugar, qty: 1.25 },
        { product_id: ids.crate, qty: 1 },
      ],
      payment_method: 'Cash',
      customer_id: ids.neema,
    });
    expect([a.total, a.tax]).toEqual([16563, 2526.56]);
    ids.a = a.id;
    await at('2026-04-02T11:00');
    ids.b = (await call('POST', '/pos/sale', { lines: [{ product_id: ids.crate, qty: 1 }], payment_method: 'Cash' })).id;
    await at('2026-04-02T11:30');
    await call('POST', `/pos/transactions/${ids.b}/refund`, { reason: 'wrong crate' });
    await at('2026-04-02T12:00');
    const part = await call('POST', `/pos/transactions/${ids.a}/refund`, {
      reason: 'too much',
      lines: [{ product_id: ids.sugar, qty: 0.25 }],
    });
    expect([part.status, part.refunded_total]).toEqual(['paid', 813]);
    await at('2026-04-02T15:00');
  });
  afterAll(() => t.close());

  it('sales report: the sale counts 15,750 and VAT 2,402.60; its 813 is listed with the refunds and on its row', async () => {
    const data = await call('POST', '/reports/generate', {
      report_type: 'sales',
      format: 'json',
      date_from: '2026-04-02',
      date_to: '2026-04-02',
    });
    expect(data.totals).toEqual({
      sales_count: 1,
      subtotal: 15750,
      discount: 0,
      tax: 2402.6,
      total: 15750,
      refunded_count: 2,
      refunded_total: 13313,
      void_count: 0,
      void_total: 0,
    });
    expect(data.rows.map((r: Record<string, unknown>) => [r.status, r.total, r.refunded])).toEqual([
      ['paid', 16563, 813],
      ['refunded', 12500, 12500],
    ]);
  });

  it('VAT report: the refund’s VAT share (refund_lines.tax) comes off the 18 % row', async () => {
    const data = await call('POST', '/reports/generate', {
      report_type: 'tax',
      format: 'json',
      date_from: '2026-04-02',
      date_to: '2026-04-02',
    });
    expect(data.rows).toEqual([{ vat_rate: 18, sales_incl_vat: 15750, vat: 2402.6, net_sales: 13347.4 }]);
  });

  it('rollups (summary, sales, per product): 1 kg of sugar sold, the day nets the refund', async () => {
    const kpis = {
      revenue: 15750,
      transaction_count: 1,
      vat: 2402.6,
      cost: 12800,
      profit: 547.4,
      items_sold: 2,
      refund_count: 2,
      refund_total: 13313,
    };
    expect(await call('GET', `/analytics/summary?${day}`)).toMatchObject(kpis);
    expect((await call('GET', `/analytics/sales?${day}`)).by_day).toEqual([
      { date: '2026-04-02', revenue: 15750, count: 1, profit: 547.4 },
    ]);
    expect((await call('GET', `/analytics/payment-mix?${day}`)).payment_mix).toMatchObject({ Cash: 15750 });
    const products = await call('GET', `/analytics/products?${day}&sort=name`);
    expect(products.items.map((p: Record<string, unknown>) => [p.name, p.qty_sold, p.revenue, p.cost])).toEqual([
      ['Kreti la soda', 1, 12500, 10000],
      ['Sukari', 1, 3250, 2800],
    ]);
    // The store list, its stats and its week (today is the day) read the ledger: the same 15,750.
    expect((await call('GET', '/stores')).items[0]).toMatchObject({ today_sales: 15750, today_transactions: 1 });
    expect(await call('GET', '/stores/stats')).toMatchObject({ total_sales_today: 15750 });
    expect((await call('GET', `/stores/${owner.storeId}/week`)).at(-1)).toMatchObject({
      date: '2026-04-02',
      sales: 15750,
      transactions: 1,
    });
    // The dashboard reads today from the ledger: the same figures.
    expect((await call('GET', '/analytics/dashboard')).today).toMatchObject({
      revenue: 15750,
      profit: 547.4,
      items_sold: 2,
      transaction_count: 1,
    });
  });

  it('/pos/summary and its hours: 15,750 sold, all cash; 2 refunds of 13,313', async () => {
    expect(await call('GET', `/pos/summary?${day}`)).toMatchObject({
      total_sales: 15750,
      transaction_count: 1,
      items_sold: 2,
      cash_total: 15750,
      refund_count: 2,
      refund_total: 13313,
    });
    const hours = await call('GET', '/pos/summary/hourly?date=2026-04-02');
    expect(hours.filter((h: { count: number }) => h.count > 0)).toEqual([{ hour: 10, sales: 15750, count: 1 }]);
  });

  it('the customer’s spend and the customers report: 15,750; the cash that went back: 13,313', async () => {
    let spend = 0;
    for (let i = 0; i < 50 && spend !== 15750; i++) {
      spend = (await call('GET', `/customers/${ids.neema}`)).total_spend;
      if (spend !== 15750) await new Promise((r) => setTimeout(r, 20));
    }
    expect(spend).toBe(15750);
    const report = await call('GET', `/analytics/customers?${day}`);
    expect(report).toMatchObject({ named_revenue: 15750, walk_in_revenue: 0 });
    expect(report.top_customers[0]).toMatchObject({ customer_id: ids.neema, revenue: 15750, count: 1 });
    const flow = await call('GET', `/analytics/cashflow?${day}`);
    expect(flow.money_out.refunds).toBe(13313);
    expect(flow.money_in.sales.Cash).toBe(29063);
  });

  it('migration 0045 down and up: each sale’s refund figures are summed again from its refund rows, its rollups rebuilt', async () => {
    const db = t.db.db;
    const figures = () =>
      db
        .selectFrom('transactions')
        .select(['id', 'part_refunds', 'refunded_total', 'refunded_tax'])
        .where('org_id', '=', owner.orgId)
        .orderBy('number')
        .execute()
        .then((rows) => rows.map((r) => [r.id, Number(r.part_refunds), Number(r.refunded_total), Number(r.refunded_tax)]));
    const stored = [
      [ids.a, 1, 81300, 12396],
      [ids.b, 0, 0, 0],
    ];
    expect(await figures()).toEqual(stored);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('2026_12_01_0044_sale_refunds')).error).toBeUndefined();
    // Rollups as they were built before 0045: the sale counted in full.
    await db.updateTable('sales_daily').set({ revenue: 1_656_300 }).where('org_id', '=', owner.orgId).execute();
    // 0045 first, then whatever came after it.
    expect((await migrateToLatest(db))[0]).toBe('2026_12_01_0045_refunds_in_reports');
    expect(await figures()).toEqual(stored);
    expect(await call('GET', `/analytics/summary?${day}`)).toMatchObject({ revenue: 15750, vat: 2402.6, refund_total: 13313 });
  });

  it('a refund of part made the next day counts on its sale’s day, as a whole refund does; its cash went out the next day', async () => {
    await call('GET', `/analytics/summary?${day}`);
    await at('2026-04-03T09:00');
    // 0.75 kg of 1.25 back in all: 4,063 × 0.6 = 2,437.80 → 2,438, of which 813 went back already.
    const more = await call('POST', `/pos/transactions/${ids.a}/refund`, { reason: 'spilt', lines: [{ product_id: ids.sugar, qty: 0.5 }] });
    expect(more.refunded_total).toBe(2438);
    expect(await call('GET', `/analytics/summary?${day}`)).toMatchObject({
      revenue: 14125,
      items_sold: 2,
      refund_count: 2,
      refund_total: 14938,
    });
    expect(await call('GET', `/pos/summary?${day}`)).toMatchObject({ total_sales: 14125, refund_total: 14938 });
    const next = 'date_from=2026-04-03&date_to=2026-04-03';
    expect(await call('GET', `/analytics/summary?${next}`)).toMatchObject({ revenue: 0, refund_count: 0, refund_total: 0 });
    expect((await call('GET', `/analytics/cashflow?${next}`)).money_out.refunds).toBe(1625);
  });
});

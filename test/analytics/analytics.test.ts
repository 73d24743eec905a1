import { newId } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, createStaff, insertSale, registerOwner, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

/**
 * Four local days of history in Dar es Salaam (UTC+3), today 2026-03-10 at 12:00. Every figure
 * below is worked out by hand from these sales (TZS):
 *
 *  03-07 10:00 owner  A×2 Cash 6,000 (cost 2,000 each), customer Baraka      profit 2,000
 *  03-07 11:00 staff  B×3 M-Pesa 4,500 (cost 1,000)                          profit 1,500
 *  03-07 23:59 owner  B×1 Tigo Pesa 1,500                                     profit   500
 *  03-08 00:00 staff  A×1 Bank 3,000                                          profit 1,000
 *  03-08 08:00        A's cost price becomes 2,400
 *  03-08 09:00 owner  A×1 + B×2 Cash 6,000, customer Baraka                  profit 1,600
 *  03-08 10:00 owner  B×1 Cash 1,500, refunded 03-09 09:00                   (excluded)
 *  03-08 11:00 staff  A×1 M-Pesa 3,000, voided 11:05                         (excluded)
 *  03-09 10:00 owner  A×2 Credit 6,000 to Neema; she pays 2,500 M-Pesa 12:00 profit 1,200
 *  03-09 14:00 owner  C×1 Cash 1,180 in a VAT store (VAT 180, cost 500)      profit   500
 *  03-09 15:00 owner  store 2: B×4 Cash 10,000 (cost 1,000)                  profit 6,000
 *  03-09 16:00        supplier paid 5,000 Bank;  03-10 08:00 expense Transport 2,000 Cash
 *  03-10 09:00 owner  A×1 + B×1 less 10% Cash 4,050 (line discounts 300, 150) profit   650
 */
describe('analytics', () => {
  let t: TestApp;
  let owner: { token: string; refresh: string; userId: string; orgId: string; storeId: string };
  let staff: { token: string; refresh: string; userId: string };
  let store2: string;
  const ids: Record<string, string> = {};
  let category: string;

  const local = (s: string) => Date.parse(`${s}:00+03:00`);
  const refresh = async (s: { token: string; refresh: string }) => {
    const res = await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh } });
    expect(res.status, res.text).toBe(200);
    s.token = res.body.data.access_token;
    s.refresh = res.body.data.refresh_token;
  };
  const at = async (when: string) => {
    t.clock.advance(local(when) - t.clock.now());
    await refresh(owner);
    await refresh(staff);
  };
  const sell = async (s: { token: string }, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/pos/sale', { token: s.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const line = (p: string, qty: number) => ({ product_id: ids[p], qty });
  const get = (path: string, token = owner.token) => t.request('GET', path, { token });

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.advance(local('2026-03-06T09:00') - t.clock.now());
    owner = await registerOwner(t);
    const s = await createStaff(t, owner as never);
    staff = { token: s.token, refresh: s.refresh, userId: s.user.id };
    const cat = await t.request('POST', '/inventory/categories', { token: owner.token, body: { name: 'Mafuta' } });
    category = cat.body.data.id;
    for (const [key, body] of [
      ['A', { name: 'Sukari 1kg', selling_price: 3000, cost_price: 2000, stock: 100 }],
      ['B', { name: 'Sabuni', selling_price: 1500, cost_price: 1000, stock: 100 }],
      ['C', { name: 'Mafuta 1L', selling_price: 1180, cost_price: 500, tax_rate: 18, stock: 10, category_id: category }],
      ['D', { name: 'Chumvi', selling_price: 500, cost_price: 300, stock: 5 }],
    ] as const) {
      const res = await t.request('POST', '/inventory/products', { token: owner.token, body });
      expect(res.status, res.text).toBe(200);
      ids[key] = res.body.data.id;
    }
    for (const [key, name] of [
      ['baraka', 'Baraka Juma'],
      ['neema', 'Neema Said'],
    ] as const) {
      const res = await t.request('POST', '/customers', { token: owner.token, body: { name, phone: uniquePhone() } });
      expect(res.status, res.text).toBe(200);
      ids[key] = res.body.data.id;
    }
    store2 = (await addStore(t, owner.orgId, 'Kariakoo Branch')).id;

    await at('2026-03-07T10:00');
    await sell(owner, { lines: [line('A', 2)], payment_method: 'Cash', customer_id: ids.baraka });
    await at('2026-03-07T11:00');
    await sell(staff, { lines: [line('B', 3)], payment_method: 'M-Pesa' });
    await at('2026-03-07T23:59');
    await sell(owner, { lines: [line('B', 1)], payment_method: 'Tigo Pesa' });
    await at('2026-03-08T00:00');
    await sell(staff, { lines: [line('A', 1)], payment_method: 'Bank' });
    await at('2026-03-08T08:00');
    expect((await t.request('PATCH', `/inventory/products/${ids.A}`, { token: owner.token, body: { cost_price: 2400 } })).status).toBe(200);
    await at('2026-03-08T09:00');
    await sell(owner, { lines: [line('A', 1), line('B', 2)], payment_method: 'Cash', customer_id: ids.baraka });
    await at('2026-03-08T10:00');
    const refunded = await sell(owner, { lines: [line('B', 1)], payment_method: 'Cash' });
    await at('2026-03-08T11:00');
    const voided = await sell(staff, { lines: [line('A', 1)], payment_method: 'M-Pesa' });
    await at('2026-03-08T11:05');
    expect(
      (await t.request('POST', `/pos/transactions/${voided}/void`, { token: owner.token, body: { reason: 'wrong item' } })).status,
    ).toBe(200);
    await at('2026-03-09T09:00');
    expect(
      (await t.request('POST', `/pos/transactions/${refunded}/refund`, { token: owner.token, body: { reason: 'returned' } })).status,
    ).toBe(200);
    await at('2026-03-09T10:00');
    await sell(owner, { lines: [line('A', 2)], payment_method: 'Credit', customer_id: ids.neema });
    await at('2026-03-09T12:00');
    const paid = await t.request('POST', `/credits/customers/${ids.neema}/payments`, {
      token: owner.token,
      body: { amount: 2500, method: 'M-Pesa' },
    });
    expect(paid.status, paid.text).toBe(200);
    await at('2026-03-09T14:00');
    await t.db.db.updateTable('stores').set({ vat_enabled: 1 }).where('id', '=', owner.storeId).execute();
    await sell(owner, { lines: [line('C', 1)], payment_method: 'Cash' });
    await t.db.db.updateTable('stores').set({ vat_enabled: 0 }).where('id', '=', owner.storeId).execute();
    const other = await insertSale(t, {
      orgId: owner.orgId,
      storeId: store2,
      cashierId: owner.userId,
      total: 10000,
      at: local('2026-03-09T15:00'),
      lines: [{ productId: ids.B!, name: 'Sabuni', qty: 4, unitPrice: 2500 }],
    });
    await t.db.db.updateTable('transaction_lines').set({ cost_price: 100_000 }).where('transaction_id', '=', other).execute();
    const supplierId = newId();
    const ms = local('2026-03-09T16:00');
    await t.db.db
      .insertInto('suppliers')
      .values({ id: supplierId, org_id: owner.orgId, name: 'Bakhresa', created_at: ms, updated_at: ms } as never)
      .execute();
    await t.db.db
      .insertInto('supplier_payments')
      .values({
        id: newId(),
        org_id: owner.orgId,
        store_id: owner.storeId,
        supplier_id: supplierId,
        delivery_id: null,
        amount: 500_000,
        payment_method: 'Bank',
        reference: null,
        notes: null,
        paid_at: ms,
        created_by: null,
        created_at: ms,
      })
      .execute();
    const spent = local('2026-03-10T08:00');
    await t.db.db
      .insertInto('expenses')
      .values({
        id: newId(),
        org_id: owner.orgId,
        store_id: owner.storeId,
        title: 'Bodaboda',
        category: 'Transport',
        amount: 200_000,
        payment_method: 'Cash',
        payment_reference: null,
        notes: null,
        receipt_url: null,
        spent_at: spent,
        created_by: null,
        created_at: spent,
        updated_at: spent,
      })
      .execute();
    await at('2026-03-10T09:00');
    await sell(owner, { lines: [line('A', 1), line('B', 1)], payment_method: 'Cash', discount_pct: 10 });
    await at('2026-03-10T12:00');
  }, 60_000);
  afterAll(() => t.close());

  const RANGE = 'date_from=2026-03-07&date_to=2026-03-10';

  it('summary: revenue of paid and credit sales, profit at the cost in force at each sale and net of VAT, refunds and voids apart', async () => {
    const res = await get(`/analytics/summary?${RANGE}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({
      revenue: 42230,
      transaction_count: 9,
      average_ticket: 4692.22,
      profit: 14950,
      cost: 27100,
      vat: 180,
      discount_total: 450,
      margin_pct: 35.55,
      items_sold: 19,
      refund_count: 1,
      refund_total: 1500,
      void_count: 1,
      void_total: 3000,
      date_from: '2026-03-07',
      date_to: '2026-03-10',
      store_id: null,
    });
    const one = await get(`/analytics/summary?${RANGE}&store_id=${owner.storeId}`);
    expect(one.body.data).toMatchObject({ revenue: 32230, transaction_count: 8, profit: 8950, items_sold: 15, store_id: owner.storeId });
  });

  it('defaults to the last 30 local days, today included', async () => {
    const res = await get('/analytics/summary');
    expect(res.body.data).toMatchObject({ date_from: '2026-02-09', date_to: '2026-03-10', revenue: 42230, transaction_count: 9 });
    const trend = await get('/analytics/trend');
    expect(trend.body.data.trend).toHaveLength(30);
  });

  it('a sale at 23:59 local counts for that day, one at 00:00 for the next', async () => {
    const d7 = await get('/analytics/summary?date_from=2026-03-07&date_to=2026-03-07');
    expect(d7.body.data).toMatchObject({ revenue: 12000, transaction_count: 3 });
    const d8 = await get('/analytics/summary?date_from=2026-03-08&date_to=2026-03-08');
    expect(d8.body.data).toMatchObject({ revenue: 9000, transaction_count: 2, refund_count: 1, void_count: 1 });
  });

  it('trend: one row per local day, zero days included', async () => {
    const res = await get('/analytics/trend?date_from=2026-03-06&date_to=2026-03-10');
    expect(res.body.data).toEqual({
      trend: [
        { date: '2026-03-06', revenue: 0, count: 0 },
        { date: '2026-03-07', revenue: 12000, count: 3 },
        { date: '2026-03-08', revenue: 9000, count: 2 },
        { date: '2026-03-09', revenue: 17180, count: 3 },
        { date: '2026-03-10', revenue: 4050, count: 1 },
      ],
      date_from: '2026-03-06',
      date_to: '2026-03-10',
      store_id: null,
    });
  });

  it('payment mix and top products', async () => {
    const mix = await get(`/analytics/payment-mix?${RANGE}`);
    expect(mix.body.data.payment_mix).toEqual({
      Cash: 27230,
      'M-Pesa': 4500,
      'Tigo Pesa': 1500,
      'Airtel Money': 0,
      Bank: 3000,
      Credit: 6000,
    });
    const top = await get(`/analytics/top-products?${RANGE}&limit=2`);
    expect(top.body.data.top_products).toEqual([
      { product_id: ids.A, name: 'Sukari 1kg', unit: 'piece', qty_sold: 7, revenue: 20700, profit: 5100 },
      { product_id: ids.B, name: 'Sabuni', unit: 'piece', qty_sold: 11, revenue: 20350, profit: 9350 },
    ]);
    expect((await get(`/analytics/top-products?${RANGE}`)).body.data.top_products.map((p: { name: string }) => p.name)).toEqual([
      'Sukari 1kg',
      'Sabuni',
      'Mafuta 1L',
    ]);
  });

  it('overview: the sections asked for', async () => {
    const all = await get(`/analytics/overview?${RANGE}`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.kpis).toMatchObject({ revenue: 42230, profit: 14950, refund_count: 1 });
    expect(all.body.data.trend).toEqual({
      labels: ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10'],
      values: [12000, 9000, 17180, 4050],
    });
    expect(all.body.data.payment_mix).toMatchObject({ Cash: 27230, Credit: 6000 });
    expect(all.body.data.top_products).toHaveLength(3);
    const some = await get(`/analytics/overview?${RANGE}&sections=trend,mix`);
    expect(Object.keys(some.body.data).sort()).toEqual(['date_from', 'date_to', 'payment_mix', 'store_id', 'trend']);
  });

  it('sales: by day, store, cashier and payment method', async () => {
    const res = await get(`/analytics/sales?${RANGE}`);
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    expect(d.totals).toMatchObject({ revenue: 42230, profit: 14950 });
    expect(d.by_day).toEqual([
      { date: '2026-03-07', revenue: 12000, count: 3, profit: 4000 },
      { date: '2026-03-08', revenue: 9000, count: 2, profit: 2600 },
      { date: '2026-03-09', revenue: 17180, count: 3, profit: 7700 },
      { date: '2026-03-10', revenue: 4050, count: 1, profit: 650 },
    ]);
    expect(d.by_store).toEqual([
      { store_id: owner.storeId, name: 'Mama Asha Duka', revenue: 32230, count: 8, profit: 8950 },
      { store_id: store2, name: 'Kariakoo Branch', revenue: 10000, count: 1, profit: 6000 },
    ]);
    expect(d.by_cashier).toEqual([
      { cashier_id: owner.userId, name: 'Asha Mushi', revenue: 34730, count: 7, profit: 12450 },
      { cashier_id: staff.userId, name: 'Juma Ali', revenue: 7500, count: 2, profit: 2500 },
    ]);
    expect(d.by_payment_method).toEqual([
      { method: 'Cash', revenue: 27230, count: 5 },
      { method: 'M-Pesa', revenue: 4500, count: 1 },
      { method: 'Tigo Pesa', revenue: 1500, count: 1 },
      { method: 'Airtel Money', revenue: 0, count: 0 },
      { method: 'Bank', revenue: 3000, count: 1 },
      { method: 'Credit', revenue: 6000, count: 1 },
    ]);
  });

  it('customers: new against returning, top customers, credit owed', async () => {
    const all = await get(`/analytics/customers?${RANGE}`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.data).toMatchObject({
      customers_served: 2,
      new_customers: 2,
      returning_customers: 0,
      named_revenue: 18000,
      walk_in_revenue: 24230,
      walk_in_count: 6,
      outstanding_credit: { total: 3500, customers: 1, overdue_total: 0, overdue_customers: 0 },
    });
    expect(all.body.data.top_customers.map((c: { name: string; revenue: number; count: number }) => [c.name, c.revenue, c.count])).toEqual([
      ['Baraka Juma', 12000, 2],
      ['Neema Said', 6000, 1],
    ]);
    const seg = all.body.data.segments;
    expect(seg.New + seg.Regular + seg.VIP + seg.Occasional).toBe(2);
    const later = await get('/analytics/customers?date_from=2026-03-08&date_to=2026-03-10');
    expect(later.body.data).toMatchObject({ customers_served: 2, new_customers: 1, returning_customers: 1 });
  });

  it('cashflow: takings by method, credit payments, refunds, expenses and supplier payments by day', async () => {
    const res = await get(`/analytics/cashflow?${RANGE}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({
      money_in: {
        sales: { Cash: 28730, 'M-Pesa': 4500, 'Tigo Pesa': 1500, 'Airtel Money': 0, Bank: 3000 },
        credit_payments: { Cash: 0, 'M-Pesa': 2500, 'Tigo Pesa': 0, 'Airtel Money': 0, Bank: 0 },
        total: 40230,
      },
      money_out: { refunds: 1500, expenses: 2000, expenses_by_category: { Transport: 2000 }, supplier_payments: 5000, total: 8500 },
      net: 31730,
      by_day: [
        { date: '2026-03-07', money_in: 12000, money_out: 0, net: 12000 },
        { date: '2026-03-08', money_in: 10500, money_out: 0, net: 10500 },
        { date: '2026-03-09', money_in: 13680, money_out: 6500, net: 7180 },
        { date: '2026-03-10', money_in: 4050, money_out: 2000, net: 2050 },
      ],
      date_from: '2026-03-07',
      date_to: '2026-03-10',
      store_id: null,
    });
    const two = await get(`/analytics/cashflow?${RANGE}&store_id=${store2}`);
    expect(two.body.data).toMatchObject({ net: 10000, money_out: { total: 0 } });
  });

  it('dashboard: today against yesterday and last week, up to the same time of day', async () => {
    const res = await get('/analytics/dashboard');
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    expect(d.as_of).toBe('2026-03-10T09:00:00.000Z');
    expect(d.today).toMatchObject({
      date: '2026-03-10',
      revenue: 4050,
      transaction_count: 1,
      profit: 650,
      items_sold: 2,
      revenue_to_same_time: 4050,
      count_to_same_time: 1,
    });
    expect(d.yesterday).toMatchObject({
      date: '2026-03-09',
      revenue: 17180,
      transaction_count: 3,
      revenue_to_same_time: 6000,
      count_to_same_time: 1,
    });
    expect(d.same_day_last_week).toMatchObject({ date: '2026-03-03', revenue: 0, transaction_count: 0 });
    expect(d.vs_yesterday).toEqual({ revenue_pct: -32.5, transaction_count_pct: 0 });
    expect(d.vs_last_week).toEqual({ revenue_pct: null, transaction_count_pct: null });
    const past = await get('/analytics/dashboard?date_to=2026-03-09');
    expect(past.body.data.today).toMatchObject({ revenue: 17180, revenue_to_same_time: 17180 });
    expect(past.body.data.yesterday).toMatchObject({ date: '2026-03-08', revenue: 9000, revenue_to_same_time: 9000 });
  });

  it('products: per product figures, stock cover, category filter and sorts', async () => {
    const res = await get(`/analytics/products?${RANGE}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.items).toEqual([
      {
        product_id: ids.A,
        name: 'Sukari 1kg',
        category_id: null,
        category_name: null,
        unit: 'piece',
        qty_sold: 7,
        revenue: 20700,
        cost: 15600,
        profit: 5100,
        margin_pct: 24.64,
        stock: 93,
        stock_cover_days: 53.1,
      },
      {
        product_id: ids.B,
        name: 'Sabuni',
        category_id: null,
        category_name: null,
        unit: 'piece',
        qty_sold: 11,
        revenue: 20350,
        cost: 11000,
        profit: 9350,
        margin_pct: 45.95,
        stock: 93,
        stock_cover_days: 33.8,
      },
      {
        product_id: ids.C,
        name: 'Mafuta 1L',
        category_id: category,
        category_name: 'Mafuta',
        unit: 'piece',
        qty_sold: 1,
        revenue: 1180,
        cost: 500,
        profit: 500,
        margin_pct: 50,
        stock: 9,
        stock_cover_days: 36,
      },
      {
        product_id: ids.D,
        name: 'Chumvi',
        category_id: null,
        category_name: null,
        unit: 'piece',
        qty_sold: 0,
        revenue: 0,
        cost: 0,
        profit: 0,
        margin_pct: null,
        stock: 5,
        stock_cover_days: null,
      },
    ]);
    expect(res.body.meta).toEqual({ page: 1, page_size: 20, total: 4, total_pages: 1 });
    const cover = await get(`/analytics/products?${RANGE}&sort=stock_cover`);
    expect(cover.body.data.items.map((p: { name: string }) => p.name)).toEqual(['Sabuni', 'Mafuta 1L', 'Sukari 1kg', 'Chumvi']);
    const cat = await get(`/analytics/products?${RANGE}&category=${category}`);
    expect(cat.body.data.items.map((p: { name: string }) => p.name)).toEqual(['Mafuta 1L']);
  });

  // Staff, managers and no token: test/api/access-rules.test.ts.
  it('refuses bad dates, a reversed range, a bad limit or section (400) and another organisation’s store (404)', async () => {
    for (const q of [
      'date_from=2026-02-30',
      'date_to=10-03-2026',
      'date_from=2026-03-10&date_to=2026-03-09',
      'date_from=2020-01-01&date_to=2026-03-10',
    ]) {
      const res = await get(`/analytics/summary?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.errors[0].code).toBe('VALIDATION_ERROR');
    }
    for (const limit of [0, 51, 'x']) expect((await get(`/analytics/top-products?limit=${limit}`)).status, String(limit)).toBe(400);
    expect((await get('/analytics/top-products?limit=50')).status).toBe(200);
    expect((await get('/analytics/overview?sections=kpis,weather')).status).toBe(400);
    expect((await get('/analytics/products?sort=price')).status).toBe(400);
    const stranger = await registerOwner(t);
    expect((await get(`/analytics/summary?store_id=${stranger.storeId}`)).status).toBe(404);
    expect((await get(`/analytics/products?category=${category}`, stranger.token)).status).toBe(404);
    expect((await get(`/analytics/summary?${RANGE}`, stranger.token)).body.data).toMatchObject({
      revenue: 0,
      transaction_count: 0,
      profit: 0,
    });
  });
});

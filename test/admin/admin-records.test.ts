import {
  ActivityEntry,
  AdminAnalyticsOverview,
  AdminCategory,
  AdminCreditTab,
  AdminCustomer,
  AdminExpense,
  AdminNote,
  AdminNotification,
  AdminProduct,
  AdminProductDetail,
  AdminReview,
  AdminSupplier,
  AdminTransaction,
  AdminTransactionsSummary,
  Envelope,
  MonitoringOverview,
  PagedEnvelope,
} from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { localDate } from '../../server/src/lib/time.js';
import { insertCreditSale, insertSale, registerOwner, type Session, mfaAdminToken } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const UNKNOWN = '0190a6f0-0000-7000-8000-000000000000';

describe('admin: catalogue, sales, business and platform records, analytics and monitoring', () => {
  let t: TestApp;
  let admin: { token: string; passwordOnly: string; userId: string };
  let a: Session;
  let b: Session;
  const ok = async <T extends z.ZodType>(schema: T, res: Promise<{ status: number; body: unknown; text: string }>) => {
    const r = await res;
    expect(r.status, r.text).toBe(200);
    return schema.parse(r.body) as z.infer<T>;
  };
  const get = (path: string) => t.request('GET', path, { token: admin.token });
  const send = (method: string, path: string, body?: unknown) => t.request(method, path, { token: admin.token, body });
  const owner = (s: Session, method: string, path: string, body?: unknown) => t.request(method, path, { token: s.token, body });
  const audit = (entityId: string) =>
    t.db.db
      .selectFrom('audit_log')
      .select(['action', 'org_id', 'user_id'])
      .where('entity_id', '=', entityId)
      .orderBy('created_at')
      .execute();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await mfaAdminToken(t);
    a = await registerOwner(t);
    b = await registerOwner(t);
  });
  afterAll(() => t.close());

  // No token, an owner, an admin without MFA: test/api/access-rules.test.ts.
  it('categories: lists per organisation, creates, renames and deletes with the owner rules, audited', async () => {
    const created = await send('POST', '/admin/categories', { org_id: a.orgId, name: 'Vinywaji', sort_order: 2 });
    expect(created.status, created.text).toBe(201);
    const cat = Envelope(AdminCategory).parse(created.body).data;
    expect(cat).toMatchObject({ name: 'Vinywaji', org_id: a.orgId, product_count: 0, sort_order: 2 });
    expect((await owner(a, 'GET', '/inventory/categories')).body.data.map((c: { id: string }) => c.id)).toEqual([cat.id]);
    expect((await owner(b, 'GET', '/inventory/categories')).body.data).toEqual([]);
    expect((await send('POST', '/admin/categories', { org_id: a.orgId, name: 'Vinywaji' })).status).toBe(409);
    expect((await send('POST', '/admin/categories', { org_id: UNKNOWN, name: 'X' })).status).toBe(404);
    expect((await send('POST', '/admin/categories', { name: 'No org' })).status).toBe(400);
    await send('POST', '/admin/categories', { org_id: b.orgId, name: 'Unga' });
    const onlyA = await ok(PagedEnvelope(AdminCategory), get(`/admin/categories?org_id=${a.orgId}`));
    expect(onlyA.meta).toEqual({ page: 1, page_size: 20, total: 1, total_pages: 1 });
    expect((await get('/admin/categories')).body.meta.total).toBe(2);
    const renamed = await ok(Envelope(AdminCategory), send('PATCH', `/admin/categories/${cat.id}`, { name: 'Vinywaji baridi' }));
    expect(renamed.data.name).toBe('Vinywaji baridi');
    const product = await owner(a, 'POST', '/inventory/products', {
      name: 'Soda',
      category_id: cat.id,
      selling_price: 1000,
      cost_price: 700,
      stock: 12,
    });
    expect(product.status, product.text).toBe(200);
    expect((await send('DELETE', `/admin/categories/${cat.id}`)).status).toBe(409);
    await owner(a, 'PATCH', `/inventory/products/${product.body.data.id}`, { category_id: null });
    expect((await send('DELETE', `/admin/categories/${cat.id}`)).status).toBe(204);
    expect((await send('DELETE', `/admin/categories/${cat.id}`)).status).toBe(404);
    expect((await audit(cat.id)).map((e) => e.action)).toEqual([
      'category.create',
      'admin.category.create',
      'category.update',
      'admin.category.update',
      'category.delete',
      'admin.category.delete',
    ]);
    expect((await audit(cat.id)).every((e) => e.user_id === admin.userId && e.org_id === a.orgId)).toBe(true);
  });

  it('products: totals stock over stores, details per store and sales, PATCH with the owner rules', async () => {
    const p = (
      await owner(a, 'POST', '/inventory/products', { name: 'Mchele 1kg', sku: 'MCH-1', selling_price: 3500, cost_price: 2800, stock: 30 })
    ).body.data as { id: string };
    await owner(b, 'POST', '/inventory/products', { name: 'Mchele 5kg', selling_price: 16000, stock: 4 });
    await insertSale(t, { orgId: a.orgId, storeId: a.storeId, total: 7000, lines: [{ productId: p.id, qty: 2, unitPrice: 3500 }] });
    const list = await ok(PagedEnvelope(AdminProduct), get('/admin/products?search=mchele'));
    expect((list.meta as { total: number }).total).toBe(2);
    const mine = list.data.find((x) => x.id === p.id)!;
    expect(mine).toMatchObject({ org_id: a.orgId, stock: 30, selling_price: 3500, sku: 'MCH-1' });
    expect((await get(`/admin/products?org_id=${b.orgId}&search=mchele`)).body.data.map((x: { name: string }) => x.name)).toEqual([
      'Mchele 5kg',
    ]);
    expect((await get('/admin/products?status=inactive')).body.meta.total).toBe(0);
    // A pack's barcode finds its product, which answers its packs (issue 51).
    const juice = (
      await owner(b, 'POST', '/inventory/products', {
        name: 'Juisi',
        selling_price: 1000,
        packs: [{ name: 'Kreti', units: 24, barcode: '7770024' }],
      })
    ).body.data as { id: string };
    const byPack = await ok(PagedEnvelope(AdminProduct), get('/admin/products?search=7770024'));
    expect(byPack.data.map((x) => [x.id, x.packs.map((k) => [k.name, k.units])])).toEqual([[juice.id, [['Kreti', 24]]]]);
    const detail = await ok(Envelope(AdminProductDetail), get(`/admin/products/${p.id}`));
    expect(detail.data).toMatchObject({
      sold_qty: 2,
      price_changes: 1,
      stock_by_store: [{ store_id: a.storeId, qty: 30 }],
      category_name: null,
    });
    const changed = await ok(
      Envelope(AdminProductDetail),
      send('PATCH', `/admin/products/${p.id}`, { selling_price: 3600, is_active: false }),
    );
    expect(changed.data).toMatchObject({ selling_price: 3600, is_active: false, price_changes: 2, stock: 30 });
    expect((await owner(a, 'GET', `/inventory/products/${p.id}`)).body.data).toMatchObject({ selling_price: 3600, is_active: false });
    expect((await send('PATCH', `/admin/products/${p.id}`, { selling_price: 10.005 })).status).toBe(400);
    expect((await send('PATCH', `/admin/products/${p.id}`, { stock: 5 })).status).toBe(400);
    expect((await send('PATCH', `/admin/products/${p.id}`, { category_id: UNKNOWN })).status).toBe(404);
    expect((await send('PATCH', `/admin/products/${UNKNOWN}`, { name: 'X' })).status).toBe(404);
    expect((await get(`/admin/products/${UNKNOWN}`)).status).toBe(404);
    expect((await audit(p.id)).map((e) => e.action)).toEqual(['product.create', 'product.update', 'admin.product.update']);
  });

  it('transactions: filters, paging, one sale with lines, and the summary', async () => {
    const first = await insertSale(t, { orgId: b.orgId, storeId: b.storeId, total: 10_000, paymentMethod: 'M-Pesa' });
    await insertSale(t, { orgId: b.orgId, storeId: b.storeId, total: 2_500, status: 'refunded' });
    const all = await ok(PagedEnvelope(AdminTransaction), get('/admin/transactions'));
    expect((all.meta as { total: number }).total).toBe(3);
    const page = await ok(PagedEnvelope(AdminTransaction), get(`/admin/transactions?org_id=${b.orgId}&page=2&page_size=1`));
    expect(page.meta).toEqual({ page: 2, page_size: 1, total: 2, total_pages: 2 });
    expect((await get('/admin/transactions?method=M-Pesa')).body.data.map((x: { id: string }) => x.id)).toEqual([first]);
    expect((await get('/admin/transactions?status=refunded')).body.meta.total).toBe(1);
    const one = await ok(Envelope(AdminTransaction), get(`/admin/transactions/${first}`));
    expect(one.data).toMatchObject({ id: first, org_id: b.orgId, store_id: b.storeId, total: 10_000, payment_method: 'M-Pesa' });
    expect((await get(`/admin/transactions/${UNKNOWN}`)).status).toBe(404);
    const today = localDate(t.clock.now(), 'Africa/Dar_es_Salaam');
    const summary = await ok(Envelope(AdminTransactionsSummary), get(`/admin/transactions/summary?date_from=${today}`));
    expect(summary.data).toMatchObject({
      date_from: today,
      date_to: today,
      total_sales: 17_000,
      transaction_count: 2,
      average_ticket: 8_500,
      refund_count: 1,
      refund_total: 2_500,
      void_count: 0,
      organisations: 2,
      stores: 2,
    });
    expect(summary.data.by_method.find((m) => m.method === 'M-Pesa')).toEqual({ method: 'M-Pesa', total: 10_000, count: 1 });
    expect((await get('/admin/transactions/summary?date_from=2026-02-02&date_to=2026-02-01')).status).toBe(400);
    expect((await get('/admin/transactions/summary?date_from=2020-01-01&date_to=2020-01-01')).body.data.transaction_count).toBe(0);
  });

  it('customers, credit tabs, suppliers with deliveries and payments, expenses across organisations', async () => {
    const c = (await owner(a, 'POST', '/customers', { name: 'Neema Joseph' })).body.data as { id: string };
    await owner(b, 'POST', '/customers', { name: 'Juma Kassim' });
    await insertCreditSale(t, { orgId: a.orgId, storeId: a.storeId, total: 4_000, customerId: c.id });
    const customers = await ok(PagedEnvelope(AdminCustomer), get('/admin/customers?has_credit=true'));
    expect(customers.data).toMatchObject([{ id: c.id, org_id: a.orgId, outstanding_balance: 4_000 }]);
    expect((await get('/admin/customers?search=juma')).body.data.map((x: { org_id: string }) => x.org_id)).toEqual([b.orgId]);
    const credits = await ok(PagedEnvelope(AdminCreditTab), get(`/admin/credits?org_id=${a.orgId}`));
    expect(credits.data).toMatchObject([{ customer_id: c.id, balance: 4_000, status: 'open', is_overdue: false, org_id: a.orgId }]);
    expect((await get('/admin/credits?overdue=true')).body.meta.total).toBe(0);

    const s = (await owner(a, 'POST', '/suppliers', { name: 'Bakhresa Ltd' })).body.data as { id: string };
    const d = await owner(a, 'POST', `/suppliers/${s.id}/deliveries`, { total_value: 50_000, status: 'delivered' });
    expect(d.status, d.text).toBe(200);
    const pay = await owner(a, 'POST', `/suppliers/deliveries/${d.body.data.id}/pay`, { amount: 20_000, payment_method: 'Cash' });
    expect(pay.status, pay.text).toBe(200);
    const suppliers = await ok(PagedEnvelope(AdminSupplier), get('/admin/suppliers'));
    expect(suppliers.data).toMatchObject([{ id: s.id, org_id: a.orgId, outstanding_balance: 30_000, delivery_count: 1, payment_count: 1 }]);
    const deliveries = await get(`/admin/suppliers/${s.id}/deliveries?unpaid=true`);
    expect(deliveries.body.meta.total).toBe(1);
    expect(deliveries.body.data[0]).toMatchObject({ id: d.body.data.id, balance: 30_000, org_id: a.orgId });
    expect((await get(`/admin/suppliers/${s.id}/deliveries?unpaid=false`)).body.meta.total).toBe(0);
    const payments = await get(`/admin/suppliers/${s.id}/payments`);
    expect(payments.body.data).toMatchObject([{ amount: 20_000, payment_method: 'Cash', org_id: a.orgId }]);
    expect((await get(`/admin/suppliers/${UNKNOWN}/payments`)).status).toBe(404);
    expect((await get(`/admin/suppliers/${UNKNOWN}/deliveries`)).status).toBe(404);

    await owner(a, 'POST', '/expenses', { title: 'Kodi ya duka', category: 'Rent', amount: 150_000 });
    await owner(b, 'POST', '/expenses', { title: 'Umeme', category: 'Utilities', amount: 20_000 });
    const rent = await ok(PagedEnvelope(AdminExpense), get('/admin/expenses?category=Rent'));
    expect(rent.data).toMatchObject([{ title: 'Kodi ya duka', amount: 150_000, org_id: a.orgId, store_id: a.storeId }]);
    expect((await get(`/admin/expenses?org_id=${b.orgId}`)).body.data.map((e: { title: string }) => e.title)).toEqual(['Umeme']);
    expect((await get('/admin/expenses?category=Food')).status).toBe(400);
  });

  it('reviews: hiding removes one from the public list, publishing brings it back, deleting removes it; audited', async () => {
    const r = (await owner(a, 'POST', '/reviews', { rating: 5, title: 'Nzuri sana' })).body.data as { id: string };
    await owner(b, 'POST', '/reviews', { rating: 2, title: 'Inachelewa' });
    const listed = await ok(PagedEnvelope(AdminReview), get('/admin/reviews?rating=5'));
    expect(listed.data).toMatchObject([{ id: r.id, org_id: a.orgId, is_published: true, user_id: a.userId }]);
    const hidden = await ok(Envelope(AdminReview), send('PATCH', `/admin/reviews/${r.id}`, { is_published: false }));
    expect(hidden.data.is_published).toBe(false);
    const pub = await t.request('GET', '/reviews/public');
    expect(pub.body.data.items.map((x: { id: string }) => x.id)).not.toContain(r.id);
    expect(pub.body.data.count).toBe(1);
    expect((await get('/admin/reviews?published=false')).body.data.map((x: { id: string }) => x.id)).toEqual([r.id]);
    await send('PATCH', `/admin/reviews/${r.id}`, { is_published: true });
    expect((await t.request('GET', '/reviews/public')).body.data.count).toBe(2);
    expect((await send('PATCH', `/admin/reviews/${r.id}`, { is_published: 'yes' })).status).toBe(400);
    expect((await send('DELETE', `/admin/reviews/${r.id}`)).status).toBe(204);
    expect((await send('DELETE', `/admin/reviews/${r.id}`)).status).toBe(404);
    expect((await send('PATCH', `/admin/reviews/${UNKNOWN}`, { is_published: true })).status).toBe(404);
    expect((await t.request('GET', '/reviews/public')).body.data.count).toBe(1);
    expect((await audit(r.id)).map((e) => e.action)).toEqual([
      'review.create',
      'admin.review.update',
      'admin.review.update',
      'admin.review.delete',
    ]);
  });

  it('notes and notifications of every store, filtered', async () => {
    await owner(a, 'POST', '/notebook', { title: 'Orodha ya bei', content: 'sukari 2800' });
    await owner(b, 'POST', '/notebook', { title: 'Madeni' });
    const notes = await ok(PagedEnvelope(AdminNote), get(`/admin/notes?org_id=${a.orgId}`));
    expect(notes.data).toMatchObject([{ title: 'Orodha ya bei', content: 'sukari 2800', org_id: a.orgId, store_id: a.storeId }]);
    expect((await get('/admin/notes?search=madeni')).body.data.map((n: { org_id: string }) => n.org_id)).toEqual([b.orgId]);
    await owner(a, 'POST', '/notifications', { category: 'system', title: 'Karibu' });
    const unread = await ok(PagedEnvelope(AdminNotification), get(`/admin/notifications?org_id=${a.orgId}&category=system&unread=true`));
    expect(unread.data).toMatchObject([{ title: 'Karibu', is_read: false, org_id: a.orgId }]);
    expect((await get(`/admin/notifications?org_id=${a.orgId}&category=system&unread=false`)).body.meta.total).toBe(0);
  });

  it('analytics overview: totals, every day, top organisations; range limits', async () => {
    const today = localDate(t.clock.now(), 'Africa/Dar_es_Salaam');
    const res = await ok(Envelope(AdminAnalyticsOverview), get('/admin/analytics/overview'));
    const o = res.data;
    expect(o.date_to).toBe(today);
    expect(o.daily).toHaveLength(30);
    // Sold today: 7,000 (a) + 4,000 credit (a) + 10,000 (b); the refund of 2,500 is apart.
    expect(o).toMatchObject({
      total_sales: 21_000,
      transaction_count: 3,
      average_ticket: 7_000,
      refund_total: 2_500,
      selling_organisations: 2,
      new_organisations: 2,
    });
    expect(o.daily.at(-1)).toEqual({ date: today, sales: 21_000, transactions: 3, new_organisations: 2 });
    expect(o.daily[0]).toMatchObject({ sales: 0, transactions: 0 });
    expect(o.top_organisations.map((x) => [x.org_id, x.sales])).toEqual([
      [a.orgId, 11_000],
      [b.orgId, 10_000],
    ]);
    expect((await get('/admin/analytics/overview?date_from=2024-01-01&date_to=2026-01-01')).status).toBe(400);
  });

  it('monitoring overview and the activity feed across organisations', async () => {
    const m = await ok(Envelope(MonitoringOverview), get('/admin/monitoring/overview'));
    expect(m.data).toMatchObject({
      organisations: { total: 2, active: 2 },
      users: { total: 3, active: 3 },
      stores: { total: 2, active: 2 },
      sales_today: { count: 3, total: 21_000 },
      sync: { devices: 0, pushes_today: 0, open_conflicts: 0 },
    });
    const adminOnly = await ok(PagedEnvelope(ActivityEntry), get('/admin/monitoring/activity?action=admin.review'));
    expect(adminOnly.data.map((e) => e.action)).toEqual(['admin.review.delete', 'admin.review.update', 'admin.review.update']);
    expect(adminOnly.data[0]).toMatchObject({ org_id: a.orgId, user_id: admin.userId, user_name: 'Platform Admin', entity: 'review' });
    const mine = await ok(PagedEnvelope(ActivityEntry), get(`/admin/monitoring/activity?org_id=${b.orgId}&page_size=2`));
    expect((mine.meta as { page_size: number }).page_size).toBe(2);
    expect(mine.data.every((e) => e.org_id === b.orgId)).toBe(true);
    expect((await get('/admin/monitoring/activity?action=admin.rev')).body.meta.total).toBe(0);
  });

  it('a measured product (issue 51): stock, stock per store and quantity sold in its unit, not grams', async () => {
    const sugar = (await owner(a, 'POST', '/inventory/products', { name: 'Sukari', unit: 'kg', selling_price: 3200, stock: 10 })).body
      .data as { id: string };
    const sold = await owner(a, 'POST', '/pos/sale', { lines: [{ product_id: sugar.id, qty: 0.5 }], payment_method: 'Cash' });
    expect(sold.status, sold.text).toBe(201);
    const listed = await ok(PagedEnvelope(AdminProduct), get(`/admin/products?org_id=${a.orgId}&search=sukari`));
    expect(listed.data.map((x) => [x.id, x.stock, x.unit])).toEqual([[sugar.id, 9.5, 'kg']]);
    const detail = await ok(Envelope(AdminProductDetail), get(`/admin/products/${sugar.id}`));
    expect(detail.data).toMatchObject({ unit: 'kg', stock: 9.5, sold_qty: 0.5, stock_by_store: [{ store_id: a.storeId, qty: 9.5 }] });
  });
});

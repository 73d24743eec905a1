import { Envelope, ReportExport, ReportResult } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '../../server/src/lib/time.js';
import { createStaff, e164, insertSale, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { csvRecords, localAt, moveClock, signIn, TZ } from '../setup/reports-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const OIL = 'Mafuta "Korie", 1L';
const BARAKA = 'Baraka "Mzee" Juma, Jr';

describe('reports: sales, VAT, inventory and credit, as CSV and JSON exports', () => {
  let t: TestApp;
  let owner: Session;
  let D: string;
  let D1: string;
  const ids: Record<string, string> = {};
  let amina: { phone: string };

  const post = async (path: string, body: unknown, s = owner) => {
    const res = await t.request('POST', path, { token: s.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  const sell = (at: number, body: Record<string, unknown>) => {
    moveClock(t, at);
    return post('/pos/sale', body);
  };
  const generate = (body: Record<string, unknown>, s = owner) => t.request('POST', '/reports/generate', { token: s.token, body });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t, { first_name: 'Asha', last_name: 'Mushi' });
    D = localDate(t.clock.now() + 10 * 86_400_000, TZ);
    D1 = addDays(D, 1);
    expect((await t.request('PATCH', `/stores/${owner.storeId}`, { token: owner.token, body: { vat_enabled: true } })).status).toBe(200);
    const food = await post('/inventory/categories', { name: 'Vyakula' });
    ids.oil = (
      await post('/inventory/products', {
        name: OIL,
        sku: 'OIL-1',
        category_id: food.id,
        selling_price: 118,
        cost_price: 90,
        tax_rate: 18,
        stock: 50,
      })
    ).id;
    ids.rice = (
      await post('/inventory/products', {
        name: 'Mchele 1kg',
        sku: 'RICE-1',
        category_id: food.id,
        selling_price: 100,
        cost_price: 80,
        tax_rate: 0,
        stock: 40,
      })
    ).id;
    ids.soap = (await post('/inventory/products', { name: 'Sabuni', selling_price: 59, cost_price: 40, tax_rate: 18, stock: 30 })).id;
    ids.baraka = (await post('/customers', { name: BARAKA })).id;
    amina = { phone: uniquePhone() };
    ids.amina = (await post('/customers', { name: 'Amina Said', phone: amina.phone })).id;

    // Day D, just before midnight in Dar es Salaam, then the first second of D+1.
    moveClock(t, localAt(D, '23:49:00'));
    owner = await signIn(t, owner);
    ids.s1 = (
      await sell(localAt(D, '23:50:00'), {
        lines: [
          { product_id: ids.oil, qty: 1 },
          { product_id: ids.rice, qty: 1 },
        ],
        payment_method: 'Cash',
        discount_pct: 20,
      })
    ).id;
    ids.s2 = (
      await sell(localAt(D, '23:52:00'), { lines: [{ product_id: ids.oil, qty: 2 }], payment_method: 'Credit', customer_id: ids.baraka })
    ).id;
    ids.s3 = (await sell(localAt(D, '23:55:00'), { lines: [{ product_id: ids.soap, qty: 1 }], payment_method: 'M-Pesa' })).id;
    await post(`/pos/transactions/${ids.s3}/refund`, { reason: 'wrong item' });
    ids.s4 = (await sell(localAt(D, '23:57:00'), { lines: [{ product_id: ids.rice, qty: 3 }], payment_method: 'Cash' })).id;
    await post(`/pos/transactions/${ids.s4}/void`, { reason: 'rung twice' });
    ids.s5 = (await sell(localAt(D, '23:59:00'), { lines: [{ product_id: ids.soap, qty: 2 }], payment_method: 'Cash' })).id;
    ids.s6 = (await sell(localAt(D1, '00:00:00'), { lines: [{ product_id: ids.oil, qty: 1 }], payment_method: 'Tigo Pesa' })).id;
    await post(`/credits/customers/${ids.baraka}/payments`, { amount: 100, method: 'Cash' });
  });
  afterAll(() => t.close());

  it('lists the report types to any signed-in user', async () => {
    const staff = await createStaff(t, owner);
    const res = await t.request('GET', '/reports/types', { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.body.data.report_types.map((r: { type: string }) => r.type)).toEqual(['sales', 'inventory', 'tax', 'credit']);
    expect(res.body.data.report_types[0].columns).toEqual([
      'receipt_number',
      'date',
      'time',
      'cashier',
      'customer',
      'payment_method',
      'status',
      'subtotal',
      'discount',
      'tax',
      'total',
      'refunded',
    ]);
    // Staff without the reports permission may not generate, list or download.
    expect((await generate({ report_type: 'sales', format: 'csv' }, { ...owner, token: staff.token })).status).toBe(403);
    expect((await t.request('GET', '/reports/exports', { token: staff.token })).status).toBe(403);
  });

  it('sales CSV of day D: a real download, every sale until 23:59 local with its status, quoting intact; 00:00 belongs to D+1', async () => {
    const res = await generate({ report_type: 'sales', format: 'csv', date_from: D, date_to: D });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="sales-report_${D}_to_${D}.csv"`);
    expect(res.text.endsWith('\r\n')).toBe(true);
    const { header, records } = csvRecords(res.text);
    expect(header).toEqual([
      'receipt_number',
      'date',
      'time',
      'cashier',
      'customer',
      'payment_method',
      'status',
      'subtotal',
      'discount',
      'tax',
      'total',
      'refunded',
    ]);
    expect(records.map((r) => Object.values(r))).toEqual([
      ['MAD-000001', D, '23:50:00', 'Asha Mushi', '', 'Cash', 'paid', '218.00', '43.60', '14.40', '174.40', '0.00'],
      ['MAD-000002', D, '23:52:00', 'Asha Mushi', BARAKA, 'Credit', 'credit', '236.00', '0.00', '36.00', '236.00', '0.00'],
      ['MAD-000003', D, '23:55:00', 'Asha Mushi', '', 'M-Pesa', 'refunded', '59.00', '0.00', '9.00', '59.00', '59.00'],
      ['MAD-000004', D, '23:57:00', 'Asha Mushi', '', 'Cash', 'void', '300.00', '0.00', '0.00', '300.00', '0.00'],
      ['MAD-000005', D, '23:59:00', 'Asha Mushi', '', 'Cash', 'paid', '118.00', '0.00', '18.00', '118.00', '0.00'],
    ]);
    // The raw line shows RFC 4180 quoting of the comma and the doubled quotes.
    expect(res.text).toContain(',"Baraka ""Mzee"" Juma, Jr",Credit,');

    const next = csvRecords((await generate({ report_type: 'sales', format: 'csv', date_from: D1, date_to: D1 })).text).records;
    expect(next.map((r) => [r.receipt_number, r.date, r.time, r.payment_method, r.total])).toEqual([
      ['MAD-000006', D1, '00:00:00', 'Tigo Pesa', '118.00'],
    ]);

    // Re-download: the same bytes, from the export list.
    const exportId = res.headers.get('x-export-id')!;
    const again = await t.request('GET', `/reports/exports/${exportId}/download`, { token: owner.token });
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(again.headers.get('content-disposition')).toBe(res.headers.get('content-disposition'));
    expect(again.text).toBe(res.text);
  });

  it('sales JSON: totals leave out refunded and void sales, which are counted apart', async () => {
    const res = await generate({ report_type: 'sales', format: 'json', date_from: D, date_to: D });
    expect(res.status, res.text).toBe(200);
    const data = Envelope(ReportResult.strict()).parse(res.body).data;
    expect(data).toMatchObject({ report_type: 'sales', date_from: D, date_to: D, timezone: TZ });
    expect(data.totals).toEqual({
      sales_count: 3,
      subtotal: 572,
      discount: 43.6,
      tax: 68.4,
      total: 528.4,
      refunded_count: 1,
      refunded_total: 59,
      void_count: 1,
      void_total: 300,
    });
    expect(data.rows.map((r) => [r.receipt_number, r.status, r.total])).toEqual([
      ['MAD-000001', 'paid', 174.4],
      ['MAD-000002', 'credit', 236],
      ['MAD-000003', 'refunded', 59],
      ['MAD-000004', 'void', 300],
      ['MAD-000005', 'paid', 118],
    ]);
    const again = await t.request('GET', `/reports/exports/${data.export_id}/download`, { token: owner.token });
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(again.text).toBe(res.text);
  });

  it('range presets are local days ending today', async () => {
    moveClock(t, localAt(D1, '00:05:00'));
    owner = await signIn(t, owner);
    const at = async (range: string) => (await generate({ report_type: 'tax', format: 'json', range })).body.data;
    expect(await at('7d')).toMatchObject({ date_from: addDays(D1, -6), date_to: D1 });
    expect(await at('90d')).toMatchObject({ date_from: addDays(D1, -89), date_to: D1 });
    expect(await at('month')).toMatchObject({ date_from: `${D1.slice(0, 7)}-01`, date_to: D1 });
    expect(await at('ytd')).toMatchObject({ date_from: `${D1.slice(0, 4)}-01-01`, date_to: D1 });
    expect((await generate({ report_type: 'tax', format: 'json' })).body.data).toMatchObject({ date_from: addDays(D1, -29), date_to: D1 });
    const bad = await generate({ report_type: 'tax', format: 'csv', date_from: D1, date_to: D });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('date_to');
    expect((await generate({ report_type: 'profit', format: 'csv' })).status).toBe(400);
  });

  it('VAT per rate of day D: sales including VAT, VAT, net; a discounted line counts net of its discount share', async () => {
    const res = await generate({ report_type: 'tax', format: 'csv', date_from: D, date_to: D });
    expect(res.status).toBe(200);
    const { header, records } = csvRecords(res.text);
    expect(header).toEqual(['vat_rate', 'sales_incl_vat', 'vat', 'net_sales']);
    // 18 %: oil 118 − 23.60 discount share = 94.40 (VAT 14.40), 2 × oil 236 (VAT 36), 2 × soap 118 (VAT 18);
    // 0 %: rice 100 − 20 = 80. The refunded soap and the voided rice are not counted.
    expect(records.map((r) => Object.values(r))).toEqual([
      ['18', '448.40', '68.40', '380.00'],
      ['0', '80.00', '0.00', '80.00'],
    ]);
    const json = (await generate({ report_type: 'tax', format: 'json', date_from: D, date_to: D })).body.data;
    expect(json.totals).toEqual({ sales_incl_vat: 528.4, vat: 68.4, net_sales: 460 });
  });

  it('inventory: stock value at cost and at selling price per product, per category, and in total', async () => {
    const res = await generate({ report_type: 'inventory', format: 'csv' });
    expect(res.status).toBe(200);
    const { header, records } = csvRecords(res.text);
    expect(header).toEqual([
      'row_type',
      'category',
      'product',
      'sku',
      'qty',
      'unit',
      'cost_price',
      'selling_price',
      'value_at_cost',
      'value_at_selling_price',
      'stock_in_packs',
    ]);
    // Stock: oil 50 − 1 − 2 − 1 = 46; rice 40 − 1 − 3 + 3 (void) = 39; soap 30 − 1 + 1 (refund) − 2 = 28.
    expect(records.map((r) => Object.values(r))).toEqual([
      ['product', '', 'Sabuni', '', '28', 'piece', '40.00', '59.00', '1120.00', '1652.00', ''],
      ['product', 'Vyakula', OIL, 'OIL-1', '46', 'piece', '90.00', '118.00', '4140.00', '5428.00', ''],
      ['product', 'Vyakula', 'Mchele 1kg', 'RICE-1', '39', 'piece', '80.00', '100.00', '3120.00', '3900.00', ''],
      ['category', '', '', '', '28', 'piece', '', '', '1120.00', '1652.00', ''],
      ['category', 'Vyakula', '', '', '85', 'piece', '', '', '7260.00', '9328.00', ''],
      ['total', '', '', '', '113', 'piece', '', '', '8380.00', '10980.00', ''],
    ]);
    expect(res.text).toContain('product,Vyakula,"Mafuta ""Korie"", 1L",OIL-1,46,piece,');
    const json = (await generate({ report_type: 'inventory', format: 'json' })).body.data;
    expect(json).toMatchObject({
      date_from: null,
      date_to: null,
      totals: { products: 3, qty: 113, value_at_cost: 8380, value_at_selling_price: 10980 },
    });
  });

  it('credit: each customer’s outstanding and overdue, a month later', async () => {
    // 31 days on, Baraka's tab (due D + 30) is overdue; Amina buys on credit that day.
    moveClock(t, localAt(addDays(D, 31), '10:00:00'));
    owner = await signIn(t, owner);
    await post('/pos/sale', { lines: [{ product_id: ids.rice, qty: 1 }], payment_method: 'Credit', customer_id: ids.amina });
    const res = await generate({ report_type: 'credit', format: 'csv' });
    expect(res.status).toBe(200);
    const { header, records } = csvRecords(res.text);
    expect(header).toEqual(['customer', 'phone', 'outstanding', 'overdue', 'open_tabs', 'overdue_tabs', 'oldest_due_date']);
    expect(records.map((r) => Object.values(r))).toEqual([
      ['Amina Said', e164(amina.phone), '100.00', '0.00', '1', '0', addDays(D, 61)],
      [BARAKA, '', '136.00', '136.00', '1', '1', addDays(D, 30)],
    ]);
    const json = (await generate({ report_type: 'credit', format: 'json' })).body.data;
    expect(json.totals).toEqual({ customers: 2, outstanding: 236, overdue: 136 });
  });

  it('lists exports newest first with filters and a limit; another organisation’s export is not found', async () => {
    const all = await t.request('GET', '/reports/exports?limit=100', { token: owner.token });
    expect(all.status).toBe(200);
    const exports = Envelope(ReportExport.array()).parse(all.body).data;
    expect(exports.length).toBeGreaterThanOrEqual(10);
    expect(exports.map((e) => e.created_at)).toEqual([...exports.map((e) => e.created_at)].sort().reverse());
    const salesCsv = (await t.request('GET', '/reports/exports?report_type=sales&format=csv', { token: owner.token })).body
      .data as ReportExport[];
    expect(salesCsv.map((e) => [e.report_type, e.format, e.date_from, e.date_to])).toEqual([
      ['sales', 'csv', D1, D1],
      ['sales', 'csv', D, D],
    ]);
    expect(salesCsv[0]).toMatchObject({
      file_url: `/api/v1/reports/exports/${salesCsv[0]!.id}/download`,
      created_by: owner.userId,
      store_id: owner.storeId,
      scheduled_report_id: null,
    });
    expect(salesCsv[0]!.size).toBeGreaterThan(100);
    const one = (await t.request('GET', '/reports/exports?limit=1', { token: owner.token })).body.data;
    expect(one).toHaveLength(1);
    expect(one[0].id).toBe(exports[0]!.id);

    const other = await registerOwner(t);
    // Another organisation's owner downloading it by id: test/api/access-rules.test.ts.
    expect((await t.request('GET', '/reports/exports', { token: other.token })).body.data).toEqual([]);
    expect((await t.request('GET', '/reports/exports/00000000-0000-7000-8000-000000000000/download', { token: owner.token })).status).toBe(
      404,
    );
  });
});

describe('reports: a long sales report is read in pages', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('lists 2,101 sales across page boundaries, ties on time broken by id, each once, in order', async () => {
    const owner = await registerOwner(t);
    const day = localDate(t.clock.now(), TZ);
    const base = localAt(day, '00:00:00');
    for (let i = 0; i < 2101; i++)
      await insertSale(t, { orgId: owner.orgId, storeId: owner.storeId, total: 1, at: base + Math.floor(i / 3) * 1000 });
    const res = await generate2(t, owner, { report_type: 'sales', format: 'csv', date_from: day, date_to: day });
    const { records } = csvRecords(res.text);
    expect(records).toHaveLength(2101);
    expect(records.map((r) => r.receipt_number)).toEqual(Array.from({ length: 2101 }, (_, i) => `MAD-${String(i + 1).padStart(6, '0')}`));
    const json = (await generate2(t, owner, { report_type: 'sales', format: 'json', date_from: day, date_to: day })).body.data;
    expect(json.rows).toHaveLength(2101);
    expect(json.totals).toMatchObject({ sales_count: 2101, total: 2101 });
  });
});

const generate2 = (t: TestApp, s: Session, body: Record<string, unknown>) =>
  t.request('POST', '/reports/generate', { token: s.token, body });

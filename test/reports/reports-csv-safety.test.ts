/** A name a cashier typed that a spreadsheet would run as a formula is written as text in every CSV report. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { csvRecords } from '../setup/reports-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('reports: CSV cells that look like formulas', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
  });
  afterAll(() => t.close());

  it('prefixes =, +, -, @ text with an apostrophe and leaves money alone', async () => {
    const post = async (path: string, body: unknown) => (await t.request('POST', path, { token: owner.token, body })).body.data;
    await post('/inventory/products', {
      name: '=HYPERLINK("http://evil.example","Sukari")',
      selling_price: 1500,
      cost_price: 1000,
      stock: 2,
    });
    await post('/inventory/products', { name: '-Unga', selling_price: 2000.5, cost_price: 1000, stock: 1 });
    await post('/inventory/products', { name: 'Chai', selling_price: 500, cost_price: 300, stock: 3 });
    await post('/inventory/products', { name: '@SUM(A1:A9)', selling_price: 100, cost_price: 50, stock: 1 });
    const res = await t.request('POST', '/reports/generate', { token: owner.token, body: { report_type: 'inventory', format: 'csv' } });
    expect(res.status, res.text).toBe(200);
    const products = csvRecords(res.text).records.filter((r) => r.row_type === 'product');
    const byName = Object.fromEntries(products.map((r) => [r.product, r]));
    expect(Object.keys(byName).sort()).toEqual(["'-Unga", '\'=HYPERLINK("http://evil.example","Sukari")', "'@SUM(A1:A9)", 'Chai']);
    expect(byName["'-Unga"]).toMatchObject({ qty: '1', selling_price: '2000.50', value_at_selling_price: '2000.50' });
  });
});

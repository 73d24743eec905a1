/** Issue 51: a pushed sale line scanned from a shop-scale label carries it; the server reads it as POST /pos/sale does. */
import { Envelope, newId, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const SCALES = { enabled: true, rules: [{ prefix: '23', item_digits: 5, value: 'price', value_digits: 5, decimals: 0 }] };
/** Item 00001 for 3,000 TZS. */
const PRICE_3000 = '2300001030005';

describe('sync: a pushed sale line by scale label', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('books a line that agrees with its label and rejects one that does not, naming the line', async () => {
    const owner = await registerOwner(t);
    await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { scale_barcodes: SCALES } });
    const soap = (
      await t.request('POST', '/inventory/products', {
        token: owner.token,
        body: { name: 'Sabuni', selling_price: 1500, stock: 10, scale_code: '00001' },
      })
    ).body.data as { id: string };
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    const sale = (seq: number, qty: number) => ({
      id: newId(),
      seq,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload: {
        id: newId(),
        client_receipt_number: `T1-${seq}`,
        lines: [{ product_id: soap.id, qty, unit_price: 1500, scale_barcode: PRICE_3000 }],
        payment_method: 'Cash',
      },
    });
    const res = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations: [sale(1, 2), sale(2, 3)] } });
    expect(res.status, res.text).toBe(200);
    const results = Envelope(PushResponse).parse(res.body).data.results;
    expect(results.map((r) => r.status)).toEqual(['applied', 'rejected']);
    expect(results[0]!.result).toMatchObject({ total: 3000 });
    expect(results[1]!.error).toMatchObject({ message: "lines.0.qty is not the scale label's quantity (2 piece)" });
    expect((await t.request('GET', `/inventory/products/${soap.id}`, { token: owner.token })).body.data.stock).toBe(8);
  });

  it("judges a pushed cash sale's change on a price label's printed amount, as the till charged it", async () => {
    const owner = await registerOwner(t);
    await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { scale_barcodes: SCALES } });
    const sugar = (
      await t.request('POST', '/inventory/products', {
        token: owner.token,
        body: { name: 'Sukari', unit: 'kg', selling_price: 3200, stock: 10, scale_code: '00042' },
      })
    ).body.data as { id: string };
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    // 1,700 TZS of sugar at 3,200/kg is 0.531 kg, which at 3,200/kg would be 1,699: the label says 1,700.
    const payload = {
      id: newId(),
      client_receipt_number: 'T1-1',
      lines: [{ product_id: sugar.id, qty: 0.531, unit_price: 3200, scale_barcode: '2300042017003' }],
      payment_method: 'Cash',
      cash_tendered: 2000,
    };
    const mutation = { id: newId(), seq: 1, type: 'sale.create', created_at: new Date(t.clock.now() - 60_000).toISOString(), payload };
    const res = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id, mutations: [mutation] } });
    expect(res.status, res.text).toBe(200);
    const [r] = Envelope(PushResponse).parse(res.body).data.results;
    expect(r).toMatchObject({ status: 'applied', result: { total: 1700 } });
    const sale = (
      await t.request('GET', `/pos/transactions/${(r!.result as { transaction_id: string }).transaction_id}`, { token: owner.token })
    ).body.data;
    expect([sale.total, sale.cash_tendered, sale.change_given]).toEqual([1700, 2000, 300]);
  });
});

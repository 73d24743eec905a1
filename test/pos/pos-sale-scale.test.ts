/**
 * Issue 51: a sale line sent as the shop-scale label the cashier scanned (`scale_barcode`): the
 * server reads it with the organisation's layouts, as the till does: a price label of a piece
 * product, and a weight label of a product sold by the kg, online and pushed by an offline till.
 */
import { Envelope, newId, PushResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const SCALES = {
  enabled: true,
  rules: [
    { prefix: '21', item_digits: 5, value: 'weight', value_digits: 5, decimals: 3 },
    { prefix: '23', item_digits: 5, value: 'price', value_digits: 5, decimals: 0 },
  ],
};
/** Labels of item 00001: 3,000 TZS, 4,500 TZS, 2.000 kg; and of item 00099 (no product), 3,000 TZS. */
const PRICE_3000 = '2300001030005';
const PRICE_4500 = '2300001045009';
const WEIGHT_2KG = '2100001020002';
const UNKNOWN = '2300099030000';
/** Weight labels of item 00007: 1.250 kg and 0.500 kg. */
const WEIGHT_1250G = '2100007012506';
const WEIGHT_500G = '2100007005003';

describe('POST /pos/sale: lines by scale label', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const shop = async () => {
    const owner = await registerOwner(t);
    expect((await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { scale_barcodes: SCALES } })).status).toBe(200);
    const made = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Sabuni ya kipande', selling_price: 1500, stock: 100, scale_code: '00001' },
    });
    expect(made.status, made.text).toBe(200);
    return { owner, soap: made.body.data as { id: string } };
  };
  const sell = (s: Session, lines: unknown[]) =>
    t.request('POST', '/pos/sale', { token: s.token, body: { lines, payment_method: 'Cash' } });
  const stockOf = async (s: Session, id: string) =>
    (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock as number;

  it('sells what each price label buys, merged with a typed line of the product, charged the labels’ prices', async () => {
    const { owner, soap } = await shop();
    const res = await sell(owner, [{ scale_barcode: PRICE_3000 }, { product_id: soap.id, qty: 1 }, { scale_barcode: PRICE_4500 }]);
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    expect(sale.lines).toHaveLength(1);
    expect(sale.lines[0]).toMatchObject({ product_id: soap.id, qty: 6, unit_price: 1500, line_total: 9000 });
    expect(sale.total).toBe(9000);
    expect(await stockOf(owner, soap.id)).toBe(94);
  });

  it('sells a weight label of loose sugar by its weight, online and from an offline till, stock exact to the gram', async () => {
    const { owner } = await shop();
    const made = await t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Sukari', unit: 'kg', selling_price: 3250, stock: 10, scale_code: '00007' },
    });
    expect(made.status, made.text).toBe(200);
    const sugar = made.body.data as { id: string };
    // 0.5 kg × 3,250 = 1,625.
    const online = await sell(owner, [{ scale_barcode: WEIGHT_500G }]);
    expect(online.status, online.text).toBe(201);
    expect(Envelope(Transaction).parse(online.body).data.lines).toEqual([
      expect.objectContaining({ product_id: sugar.id, qty: 0.5, unit: 'kg', line_total: 1625 }),
    ]);
    expect(await stockOf(owner, sugar.id)).toBe(9.5);

    // Weighed offline: the till sends the label with what it read from it; 4,062.50 → 4,063.
    const device_id = newId();
    expect((await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till 1' } })).status).toBe(200);
    const pushed = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: {
        device_id,
        mutations: [
          {
            id: newId(),
            seq: 1,
            type: 'sale.create',
            created_at: new Date(t.clock.now() - 60_000).toISOString(),
            payload: {
              id: newId(),
              client_receipt_number: 'T1-1',
              lines: [{ product_id: sugar.id, qty: 1.25, unit_price: 3250, scale_barcode: WEIGHT_1250G }],
              payment_method: 'Cash',
              cash_tendered: 5000,
            },
          },
        ],
      },
    });
    expect(pushed.status, pushed.text).toBe(200);
    const [result] = Envelope(PushResponse).parse(pushed.body).data.results;
    expect(result).toMatchObject({ status: 'applied', result: { total: 4063 } });
    expect(result!.conflicts).toBeUndefined();
    expect(await stockOf(owner, sugar.id)).toBe(8.25);
    const counts = await t.db.db
      .selectFrom('product_stock')
      .select('qty')
      .where('org_id', '=', owner.orgId)
      .where('product_id', '=', sugar.id)
      .execute();
    expect(counts.map((r) => Number(r.qty))).toEqual([8_250]);
  });

  it('takes a label sent with its product and quantity when they agree, and refuses them when they do not', async () => {
    const { owner, soap } = await shop();
    const agreed = await sell(owner, [{ scale_barcode: PRICE_3000, product_id: soap.id, qty: 2 }]);
    expect(agreed.status, agreed.text).toBe(201);
    expect(agreed.body.data.total).toBe(3000);

    const other = (await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Omo', selling_price: 1500 } })).body
      .data;
    const wrongProduct = await sell(owner, [
      { product_id: soap.id, qty: 1 },
      { scale_barcode: PRICE_3000, product_id: other.id },
    ]);
    expect(wrongProduct.status).toBe(400);
    expect(wrongProduct.body.errors[0]).toMatchObject({
      field: 'lines.1.product_id',
      message: 'is not the product of the scale label (Sabuni ya kipande)',
    });
    const wrongQty = await sell(owner, [{ scale_barcode: PRICE_3000, qty: 3 }]);
    expect(wrongQty.status).toBe(400);
    expect(wrongQty.body.errors[0]).toMatchObject({ field: 'lines.0.qty', message: "is not the scale label's quantity (2 piece)" });
    expect(await stockOf(owner, soap.id)).toBe(98);
  });

  it('refuses, naming the line, a label of no product, a misread label, a weight of a piece product and a line with neither', async () => {
    const { owner, soap } = await shop();
    const cases: Array<[unknown, string, string]> = [
      [{ scale_barcode: UNKNOWN }, 'lines.1.scale_barcode', 'names scale code 00099, which no product has'],
      [{ scale_barcode: '2300001030006' }, 'lines.1.scale_barcode', 'is not a readable scale label (its check digit is wrong)'],
      [{ scale_barcode: WEIGHT_2KG }, 'lines.1.scale_barcode', 'a weight label sells a product sold by kg or g, not by piece'],
      [{ scale_barcode: '4006381333931' }, 'lines.1.scale_barcode', "is not one of the organisation's scale labels (scale_barcodes)"],
      [{ qty: 1 }, 'lines.1', 'needs product_id and qty, or a scale_barcode'],
    ];
    for (const [line, field, message] of cases) {
      const res = await sell(owner, [{ product_id: soap.id, qty: 1 }, line]);
      expect(res.status, JSON.stringify(line)).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ field, message });
    }
    expect(await stockOf(owner, soap.id)).toBe(100);
  });

  it('reads no label while the scales are off', async () => {
    const { owner } = await shop();
    await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { scale_barcodes: { ...SCALES, enabled: false } } });
    const res = await sell(owner, [{ scale_barcode: PRICE_3000 }]);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      field: 'lines.0.scale_barcode',
      message: "is not one of the organisation's scale labels (scale_barcodes)",
    });
  });
});

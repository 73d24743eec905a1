/**
 * Issue 51: stock kept in the base unit and shown both ways. A crate of Safari received as 3 crates
 * and 5 bottles reads "3 × Crate of 24 + 5" beside `stock` 77; a crate and 3 bottles sold, 50 and
 * "2 × Crate of 24 + 2", in the product, the product list and the low-stock list alike. A measured
 * product's rest keeps its unit; a product without packs says null.
 */
import { Envelope, Product } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerOwner, type Session } from '../setup/factories.js';
import { csvRecords } from '../setup/reports-factories.js';
import { newDelivery, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('stock_in_packs: a product’s stock said in its packs', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const create = async (s: Session, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/inventory/products', { token: s.token, body: { selling_price: 1000, cost_price: 700, ...body } });
    expect(res.status, res.text).toBe(200);
    return Envelope(Product).parse(res.body).data;
  };
  const read = async (s: Session, id: string) =>
    Envelope(Product).parse((await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body).data;
  const listed = async (s: Session, path: string, id: string) =>
    z
      .array(Product)
      .parse((await t.request('GET', path, { token: s.token })).body.data)
      .find((p) => p.id === id)!;

  it('a crate received as 3 crates + 5 reads "3 × Crate of 24 + 5"; a crate and 3 sold, 50 and "2 × Crate of 24 + 2"', async () => {
    const owner = await registerOwner(t);
    const safari = await create(owner, {
      name: 'Safari Lager',
      stock: 0,
      reorder_point: 60,
      packs: [{ name: 'Crate of 24', units: 24, selling_price: 22000 }],
    });
    expect([safari.stock, safari.stock_in_packs]).toEqual([0, '0']);
    const crate = safari.packs[0]!;
    const supplier = await newSupplier(t, owner);
    await newDelivery(t, owner, supplier.id, {
      status: 'delivered',
      lines: [
        { product_id: safari.id, pack_id: crate.id, qty: 3, unit_cost: 16800 },
        { product_id: safari.id, qty: 5, unit_cost: 700 },
      ],
    });
    const received = await read(owner, safari.id);
    expect([received.stock, received.stock_in_packs]).toEqual([77, '3 × Crate of 24 + 5']);

    const sale = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: {
        lines: [
          { product_id: safari.id, pack_id: crate.id, qty: 1 },
          { product_id: safari.id, qty: 3 },
        ],
        payment_method: 'Cash',
      },
    });
    expect(sale.status, sale.text).toBe(201);
    const after = await read(owner, safari.id);
    expect([after.stock, after.stock_in_packs]).toEqual([50, '2 × Crate of 24 + 2']);
    // The lists say it too: the products page and, at or under its reorder point of 60, the low-stock list.
    for (const path of ['/inventory/products', '/inventory/low-stock']) {
      const p = await listed(owner, path, safari.id);
      expect([path, p.stock, p.stock_in_packs]).toEqual([path, 50, '2 × Crate of 24 + 2']);
    }
  });

  it('a measured product’s rest keeps its unit; several packs, largest first; no packs: null; the inventory report too', async () => {
    const owner = await registerOwner(t);
    const rice = await create(owner, { name: 'Mchele', unit: 'kg', stock: 60.5, packs: [{ name: 'Sack 25 kg', units: 25 }] });
    expect([rice.stock, rice.stock_in_packs]).toEqual([60.5, '2 × Sack 25 kg + 10.5 kg']);
    const tablets = await create(owner, {
      name: 'Paracetamol 500mg',
      stock: 115,
      packs: [
        { name: 'Strip', units: 10 },
        { name: 'Box', units: 100 },
      ],
    });
    expect((await read(owner, tablets.id)).stock_in_packs).toBe('1 × Box + 1 × Strip + 5');
    const sugar = await create(owner, { name: 'Sukari', unit: 'kg', stock: 12.25 });
    const sugarRead = await read(owner, sugar.id);
    expect([sugarRead.stock, sugarRead.stock_in_packs]).toEqual([12.25, null]);
    // The inventory report's last column says the same, blank without packs and on the summary rows.
    const csv = await t.request('POST', '/reports/generate', { token: owner.token, body: { report_type: 'inventory', format: 'csv' } });
    expect(csv.status, csv.text).toBe(200);
    expect(csvRecords(csv.text).records.map((r) => [r.row_type, r.product, r.qty, r.stock_in_packs])).toEqual([
      ['product', 'Mchele', '60.5', '2 × Sack 25 kg + 10.5 kg'],
      ['product', 'Paracetamol 500mg', '115', '1 × Box + 1 × Strip + 5'],
      ['product', 'Sukari', '12.25', ''],
      ['category', '', '', ''],
      ['total', '', '', ''],
    ]);
  });
});

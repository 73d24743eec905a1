/**
 * Issue 51: a pharmacy buys tablets by the box of 100 and dispenses them by the strip of 10, both
 * packs of the tablet. Lots and FEFO work per tablet: a box received on a lot adds 100 to it, and a
 * strip sold takes 10 from the earliest-expiring lot, going on to the next when it runs out.
 */
import { Envelope, Product, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../setup/factories.js';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner } from '../setup/pharmacy-factories.js';
import { newDelivery, newSupplier } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('a box of 100 tablets dispensed by the strip under FEFO', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await pharmacyOwner(t);
  });
  afterAll(() => t.close());

  const sellStrips = async (productId: string, stripId: string, qty: number) => {
    const res = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: productId, pack_id: stripId, qty }], payment_method: 'Cash' },
    });
    expect(res.status, res.text).toBe(201);
    return Envelope(Transaction).parse(res.body).data;
  };
  const lots = async (productId: string) =>
    (await batchRows(t, owner.storeId, productId)).map((b) => [b.lot_number, b.expiry_date, b.qty_on_hand]);

  it('boxes received on their lots add 100 tablets each; strips take 10 each from the earliest expiry first', async () => {
    const med = await newMedicine(t, owner, {
      name: 'Amoxicillin 500mg',
      generic_name: 'Amoxicillin',
      selling_price: 200,
      packs: [
        { name: 'Box', units: 100, selling_price: 15000 },
        { name: 'Strip', units: 10 },
      ],
    });
    const packs = Envelope(Product).parse((await t.request('GET', `/inventory/products/${med.id}`, { token: owner.token })).body).data
      .packs;
    const box = packs.find((p) => p.name === 'Box')!;
    const strip = packs.find((p) => p.name === 'Strip')!;
    const supplier = await newSupplier(t, owner, { name: 'Medisel Tanzania' });
    // The later lot is listed first: FEFO goes by expiry, not by the order received.
    await newDelivery(t, owner, supplier.id, {
      status: 'delivered',
      lines: [
        { product_id: med.id, pack_id: box.id, qty: 1, unit_cost: 9000, lot_number: 'AMX-LATE', expiry_date: '2028-06-30' },
        { product_id: med.id, pack_id: box.id, qty: 1, unit_cost: 9000, lot_number: 'AMX-SOON', expiry_date: '2027-03-31' },
      ],
    });
    expect(await lots(med.id)).toEqual([
      ['AMX-LATE', '2028-06-30', 100],
      ['AMX-SOON', '2027-03-31', 100],
    ]);

    const first = await sellStrips(med.id, strip.id, 2);
    // A strip has no price of its own: 10 tablets × 200.
    expect(first.lines.map((l) => [l.qty, l.unit_price, l.line_total, l.pack?.qty])).toEqual([[20, 2000, 4000, 2]]);
    expect(first.lines[0]!.batches.map((b) => [b.lot_number, b.qty])).toEqual([['AMX-SOON', 20]]);
    expect(await lots(med.id)).toEqual([
      ['AMX-LATE', '2028-06-30', 100],
      ['AMX-SOON', '2027-03-31', 80],
    ]);

    const second = await sellStrips(med.id, strip.id, 9);
    expect(second.lines[0]!.batches.map((b) => [b.lot_number, b.qty])).toEqual([
      ['AMX-SOON', 80],
      ['AMX-LATE', 10],
    ]);
    expect(await lots(med.id)).toEqual([
      ['AMX-LATE', '2028-06-30', 90],
      ['AMX-SOON', '2027-03-31', 0],
    ]);
    const after = await t.request('GET', `/inventory/products/${med.id}`, { token: owner.token });
    expect(after.body.data.stock).toBe(90);
    await expectBatchesMatchStock(t, owner);
  });
});

/**
 * Issue 51 on the pharmacy till: a box of 100 tablets in strips of 10 dispensed by the strip
 * offline, its lots taken per tablet first-expiry-first; and a medicine measured in litres, whose
 * lots the replica keeps in millilitres as the server does (counts), answering them in litres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner } from '../../test/setup/pharmacy-factories.js';
import { newDelivery, newSupplier } from '../../test/setup/suppliers-factories.js';
import type { Session } from '../../test/setup/factories.js';
import type { Till } from '@duka/client-sdk';
import { type Harness, openTill, startServer } from './harness.js';

const STRIP_CODE = '6009100000105';
const BOX_CODE = '6009100001003';

describe('the pharmacy till: a box of 100 tablets dispensed by the strip, and a lot in litres', () => {
  let h: Harness;
  const tills: Till[] = [];
  beforeAll(async () => (h = await startServer()));
  afterAll(async () => {
    await Promise.all(tills.map((t) => t.close()));
    await h.close();
  });

  const signedIn = async (owner: Session) => {
    const till = await openTill(h);
    tills.push(till);
    await till.login(owner.phone, owner.password);
    await till.syncNow();
    return till;
  };
  const tillLots = async (till: Till, productId: string) =>
    (await till.batches({ product_id: productId })).map((b) => [b.lot_number, b.status, b.qty_on_hand]);
  /** The server's rows as stored: counts (tablets, millilitres). */
  const serverLots = async (owner: Session, productId: string) =>
    (await batchRows(h.t, owner.storeId, productId)).map((b) => [b.lot_number, b.status, b.qty_on_hand]);
  type Line = { qty: number; unit_price: number; line_total: number; pack?: unknown; batches: Array<{ lot_number: string; qty: number }> };
  const linesOf = (sale: { lines: Line[] }) =>
    sale.lines.map((l) => [l.qty, l.unit_price, l.line_total, l.pack ?? null, l.batches.map((b) => [b.lot_number, b.qty])]);

  it('dispenses 2 strips offline: 15 tablets from the lot expiring first, 5 from the next; the push agrees', async () => {
    const owner = await pharmacyOwner(h.t);
    const med = await newMedicine(h.t, owner, {
      name: 'Amoxicillin 500mg',
      generic_name: 'Amoxicillin',
      selling_price: 200,
      packs: [
        { name: 'Box', units: 100, barcode: BOX_CODE, selling_price: 15000 },
        { name: 'Strip', units: 10, barcode: STRIP_CODE },
      ],
    });
    const product = (await h.t.request('GET', `/inventory/products/${med.id}`, { token: owner.token })).body.data;
    const box = product.packs.find((p: { name: string }) => p.name === 'Box');
    const strip = product.packs.find((p: { name: string }) => p.name === 'Strip');
    const supplier = await newSupplier(h.t, owner, { name: 'Medisel Tanzania' });
    // A box on the later lot; a strip and 5 loose tablets on the sooner one.
    await newDelivery(h.t, owner, supplier.id, {
      status: 'delivered',
      lines: [
        { product_id: med.id, pack_id: box.id, qty: 1, unit_cost: 9000, lot_number: 'AMX-LATE', expiry_date: '2028-06-30' },
        { product_id: med.id, pack_id: strip.id, qty: 1, unit_cost: 1000, lot_number: 'AMX-SOON', expiry_date: '2027-03-31' },
      ],
    });
    await newDelivery(h.t, owner, supplier.id, {
      status: 'delivered',
      lines: [{ product_id: med.id, qty: 5, unit_cost: 100, lot_number: 'AMX-SOON', expiry_date: '2027-03-31' }],
    });
    const till = await signedIn(owner);
    expect(await tillLots(till, med.id)).toEqual([
      ['AMX-SOON', 'sellable', 15],
      ['AMX-LATE', 'sellable', 100],
    ]);
    expect(await till.stock(med.id)).toBe(115);

    h.net.offline = true;
    const scanned = (await till.productByCode(STRIP_CODE))!;
    expect([scanned.id, scanned.scanned_pack?.name, scanned.scanned_pack?.units]).toEqual([med.id, 'Strip', 10]);
    const receipt = await till.sell({ lines: [{ product_id: med.id, pack_id: strip.id, qty: 2 }], payment_method: 'Cash' });
    // A strip has no price of its own: 10 tablets × 200 = 2,000; two strips 4,000.
    const dispensed = [
      [
        20,
        2000,
        4000,
        { id: strip.id, name: 'Strip', units: 10, qty: 2 },
        [
          ['AMX-SOON', 15],
          ['AMX-LATE', 5],
        ],
      ],
    ];
    expect(linesOf(receipt)).toEqual(dispensed);
    expect(receipt.total).toBe(4000);
    expect(await till.stock(med.id)).toBe(95);
    // Said in packs from the replica's own level, offline, not the level the server last sent (115: 1 × Box + 1 × Strip + 5).
    expect((await till.product(med.id))?.stock_in_packs).toBe('9 × Strip + 5');
    expect(await tillLots(till, med.id)).toEqual([
      ['AMX-SOON', 'sellable', 0],
      ['AMX-LATE', 'sellable', 95],
    ]);

    h.net.offline = false;
    expect(await till.syncNow()).toMatchObject({ pushed: 1 });
    expect(await till.conflicts()).toEqual([]);
    const server = await h.t.request('GET', `/pos/transactions/${receipt.id}`, { token: owner.token });
    expect(linesOf(server.body.data)).toEqual(dispensed);
    expect(linesOf((await till.transaction(receipt.id))!)).toEqual(dispensed);
    expect(await serverLots(owner, med.id)).toEqual([
      ['AMX-LATE', 'sellable', 95],
      ['AMX-SOON', 'sellable', 0],
    ]);
    expect((await h.t.request('GET', `/inventory/products/${med.id}`, { token: owner.token })).body.data.stock).toBe(95);
    await expectBatchesMatchStock(h.t, owner);

    // One more strip, refunded whole through the till: a pharmacy's returned tablets wait in quarantine.
    const one = await till.sell({ lines: [{ product_id: med.id, pack_id: strip.id, qty: 1 }], payment_method: 'Cash' });
    expect(linesOf(one)[0]![4]).toEqual([['AMX-LATE', 10]]);
    await till.syncNow();
    const refunded = await till.refund(one.id, 'wrong strength');
    expect(refunded.status).toBe('refunded');
    await till.syncNow();
    expect(await till.rejected()).toEqual([]);
    expect((await h.t.request('GET', `/pos/transactions/${one.id}`, { token: owner.token })).body.data.status).toBe('refunded');
    expect(await serverLots(owner, med.id)).toEqual([
      ['AMX-LATE', 'sellable', 85],
      ['AMX-LATE', 'quarantined', 10],
      ['AMX-SOON', 'sellable', 0],
    ]);
    expect(await till.stock(med.id)).toBe(85);
    await expectBatchesMatchStock(h.t, owner);
  });

  it('sells 0.25 l across two lots offline: the replica keeps the lots in millilitres, exactly as the server', async () => {
    const owner = await pharmacyOwner(h.t);
    const syrup = await newMedicine(h.t, owner, {
      name: 'Glycerin BP',
      generic_name: 'Glycerol',
      strength: '100%',
      dosage_form: 'syrup',
      unit: 'l',
      selling_price: 12000,
    });
    const supplier = await newSupplier(h.t, owner, { name: 'Medisel Tanzania' });
    await newDelivery(h.t, owner, supplier.id, {
      status: 'delivered',
      lines: [
        { product_id: syrup.id, qty: 0.1, unit_cost: 8000, lot_number: 'G-SOON', expiry_date: '2027-01-31' },
        { product_id: syrup.id, qty: 2, unit_cost: 8000, lot_number: 'G-LATE', expiry_date: '2028-01-31' },
      ],
    });
    const till = await signedIn(owner);
    expect(await tillLots(till, syrup.id)).toEqual([
      ['G-SOON', 'sellable', 0.1],
      ['G-LATE', 'sellable', 2],
    ]);
    expect(await till.stock(syrup.id)).toBe(2.1);

    h.net.offline = true;
    const receipt = await till.sell({ lines: [{ product_id: syrup.id, qty: 0.25 }], payment_method: 'Cash' });
    // 0.25 l × 12,000 = 3,000; 0.1 l from the lot expiring first, 0.15 l from the next.
    const sold = [
      [
        0.25,
        12000,
        3000,
        null,
        [
          ['G-SOON', 0.1],
          ['G-LATE', 0.15],
        ],
      ],
    ];
    expect(linesOf(receipt)).toEqual(sold);
    expect(await till.stock(syrup.id)).toBe(1.85);
    expect(await tillLots(till, syrup.id)).toEqual([
      ['G-SOON', 'sellable', 0],
      ['G-LATE', 'sellable', 1.85],
    ]);

    h.net.offline = false;
    expect(await till.syncNow()).toMatchObject({ pushed: 1 });
    expect(await till.conflicts()).toEqual([]);
    const server = await h.t.request('GET', `/pos/transactions/${receipt.id}`, { token: owner.token });
    expect(linesOf(server.body.data)).toEqual(sold);
    expect(linesOf((await till.transaction(receipt.id))!)).toEqual(sold);
    expect(await serverLots(owner, syrup.id)).toEqual([
      ['G-LATE', 'sellable', 1850],
      ['G-SOON', 'sellable', 0],
    ]);
    // After the pull the server's rows replace the till's: still in litres on the till.
    expect(await tillLots(till, syrup.id)).toEqual([
      ['G-SOON', 'sellable', 0],
      ['G-LATE', 'sellable', 1.85],
    ]);
    expect(await till.stock(syrup.id)).toBe(1.85);
    await expectBatchesMatchStock(h.t, owner);

    // More than the lots hold: refused as the server refuses it, in litres.
    h.net.offline = true;
    await expect(till.sell({ lines: [{ product_id: syrup.id, qty: 2 }], payment_method: 'Cash' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_STOCK',
      field: 'lines.0.qty',
      message: 'not enough stock of Glycerin BP: 1.85 available',
    });
    // A measured line voided offline goes back onto its lot, in millilitres.
    const again = await till.sell({ lines: [{ product_id: syrup.id, qty: 0.1 }], payment_method: 'Cash' });
    expect(await tillLots(till, syrup.id)).toEqual([
      ['G-SOON', 'sellable', 0],
      ['G-LATE', 'sellable', 1.75],
    ]);
    await till.void(again.id, 'rung up twice');
    expect(await tillLots(till, syrup.id)).toEqual([
      ['G-SOON', 'sellable', 0],
      ['G-LATE', 'sellable', 1.85],
    ]);
    h.net.offline = false;
    await till.syncNow();
    expect(await till.rejected()).toEqual([]);
    expect(await serverLots(owner, syrup.id)).toEqual([
      ['G-LATE', 'sellable', 1850],
      ['G-SOON', 'sellable', 0],
    ]);
    expect(await tillLots(till, syrup.id)).toEqual([
      ['G-SOON', 'sellable', 0],
      ['G-LATE', 'sellable', 1.85],
    ]);
    await expectBatchesMatchStock(h.t, owner);
  });
});

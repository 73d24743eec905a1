import { Envelope, PushResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { productOf } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('pharmacy: lots received on deliveries, sold FEFO, refunded into quarantine, voided back', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  let n = 0;
  const uuid = () => `0194f2c0-${String(++n).padStart(4, '0')}-7000-8000-${String(Date.now() % 1e12).padStart(12, '0')}`;
  const sell = (s: { token: string }, lines: Array<{ product_id: string; qty: number }>) =>
    t.request('POST', '/pos/sale', { token: s.token, body: { lines, payment_method: 'Cash' } });
  const lots = async (storeId: string, productId: string) =>
    (await batchRows(t, storeId, productId)).map(({ lot_number, status, qty_on_hand, source_batch_id }) => ({
      lot_number,
      status,
      qty_on_hand,
      quarantine: source_batch_id !== null,
    }));

  it('receives lots on a delivery, sells first-expiry-first across lots, prints the lots, and keeps stock equal to the sellable batches', async () => {
    const owner = await pharmacyOwner(t);
    const amoxyl = await newMedicine(t, owner, {
      name: 'Amoxyl 250mg',
      generic_name: 'Amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
    });
    expect(amoxyl.track_batches).toBe(true);

    // A lot must say its number and expiry; nothing is written when it does not.
    const supplier = (await t.request('POST', '/suppliers', { token: owner.token, body: { name: 'Medisel' } })).body.data.id as string;
    const noLot = await t.request('POST', `/suppliers/${supplier}/deliveries`, {
      token: owner.token,
      body: { status: 'delivered', lines: [{ product_id: amoxyl.id, qty: 10, unit_cost: 300 }] },
    });
    expect(noLot.status).toBe(400);
    expect(noLot.body.errors[0]).toMatchObject({ field: 'lines.0.lot_number' });
    const expired = await t.request('POST', `/suppliers/${supplier}/deliveries`, {
      token: owner.token,
      body: {
        status: 'delivered',
        lines: [{ product_id: amoxyl.id, qty: 10, unit_cost: 300, lot_number: 'OLD1', expiry_date: '2025-01-31' }],
      },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.errors[0]).toMatchObject({ field: 'lines.0.expiry_date' });
    expect((await productOf(t, owner, amoxyl.id)).stock).toBe(0);
    expect(await lots(owner.storeId, amoxyl.id)).toEqual([]);

    await receiveLots(t, owner, [
      { product_id: amoxyl.id, lot_number: 'A-2703', expiry_date: '2027-03-31', qty: 10 },
      { product_id: amoxyl.id, lot_number: 'B-2701', expiry_date: '2027-01-31', qty: 5 },
    ]);
    expect((await productOf(t, owner, amoxyl.id)).stock).toBe(15);
    // The same lot again with another expiry is a typing mistake, refused.
    const clash = await t.request('POST', `/suppliers/${supplier}/deliveries`, {
      token: owner.token,
      body: {
        status: 'delivered',
        lines: [{ product_id: amoxyl.id, qty: 1, unit_cost: 300, lot_number: 'B-2701', expiry_date: '2027-02-28' }],
      },
    });
    expect(clash.status).toBe(400);
    expect(clash.body.errors[0]).toMatchObject({ field: 'lines.0.expiry_date' });
    // A lot typed in another case is the same lot.
    await receiveLots(t, owner, [{ product_id: amoxyl.id, lot_number: 'b-2701', expiry_date: '2027-01-31', qty: 2 }]);
    expect(await lots(owner.storeId, amoxyl.id)).toEqual([
      { lot_number: 'A-2703', status: 'sellable', qty_on_hand: 10, quarantine: false },
      { lot_number: 'B-2701', status: 'sellable', qty_on_hand: 7, quarantine: false },
    ]);
    expect(
      (
        await t.request('POST', `/inventory/products/${amoxyl.id}/adjust`, {
          token: owner.token,
          body: { qty_change: -2, reason: 'count', batch_id: (await batchRows(t, owner.storeId, amoxyl.id))[1]!.id },
        })
      ).status,
    ).toBe(200);

    const sold = await sell(owner, [{ product_id: amoxyl.id, qty: 7 }]);
    expect(sold.status, sold.text).toBe(201);
    const sale = Envelope(Transaction).parse(sold.body).data;
    expect(sale.lines[0]!.batches.map(({ lot_number, expiry_date, qty }) => ({ lot_number, expiry_date, qty }))).toEqual([
      { lot_number: 'B-2701', expiry_date: '2027-01-31', qty: 5 },
      { lot_number: 'A-2703', expiry_date: '2027-03-31', qty: 2 },
    ]);
    const detail = Envelope(Transaction).parse((await t.request('GET', `/pos/transactions/${sale.id}`, { token: owner.token })).body).data;
    expect(detail.lines[0]!.batches).toEqual(sale.lines[0]!.batches);
    // The receipt prints each lot and its expiry under the line.
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/receipt`, { token: owner.token, body: { email: 'mgonjwa@duka.test' } }))
        .status,
    ).toBe(200);
    const mail = await t.db.db.selectFrom('outbox').select('body').where('recipient', '=', 'mgonjwa@duka.test').executeTakeFirstOrThrow();
    expect(mail.body).toContain(
      '7 x Amoxyl 250mg @ TZS 500 = TZS 3,500\n  Lot B-2701, exp 2027-01-31: 5\n  Lot A-2703, exp 2027-03-31: 2\n',
    );
    expect((await productOf(t, owner, amoxyl.id)).stock).toBe(8);
    expect(await lots(owner.storeId, amoxyl.id)).toEqual([
      { lot_number: 'A-2703', status: 'sellable', qty_on_hand: 8, quarantine: false },
      { lot_number: 'B-2701', status: 'sellable', qty_on_hand: 0, quarantine: false },
    ]);

    // More than the lots hold: refused, and nothing moved.
    const tooMany = await sell(owner, [{ product_id: amoxyl.id, qty: 9 }]);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.errors[0]).toMatchObject({
      code: 'INSUFFICIENT_STOCK',
      field: 'lines.0.qty',
      message: 'not enough stock of Amoxyl 250mg: 8 available',
    });
    expect((await productOf(t, owner, amoxyl.id)).stock).toBe(8);
    await expectBatchesMatchStock(t, owner);

    // A refund in a pharmacy goes into quarantine, lot by lot; stock does not change.
    const refunded = await t.request('POST', `/pos/transactions/${sale.id}/refund`, {
      token: owner.token,
      body: { reason: 'wrong strength' },
    });
    expect(refunded.status, refunded.text).toBe(200);
    expect((await productOf(t, owner, amoxyl.id)).stock).toBe(8);
    expect(await lots(owner.storeId, amoxyl.id)).toEqual([
      { lot_number: 'A-2703', status: 'sellable', qty_on_hand: 8, quarantine: false },
      { lot_number: 'A-2703', status: 'quarantined', qty_on_hand: 2, quarantine: true },
      { lot_number: 'B-2701', status: 'sellable', qty_on_hand: 0, quarantine: false },
      { lot_number: 'B-2701', status: 'quarantined', qty_on_hand: 5, quarantine: true },
    ]);

    // A void puts the units straight back on the lot they came from.
    const second = Envelope(Transaction).parse((await sell(owner, [{ product_id: amoxyl.id, qty: 3 }])).body).data;
    expect(second.lines[0]!.batches.map((b) => [b.lot_number, b.qty])).toEqual([['A-2703', 3]]);
    expect((await productOf(t, owner, amoxyl.id)).stock).toBe(5);
    expect(
      (await t.request('POST', `/pos/transactions/${second.id}/void`, { token: owner.token, body: { reason: 'rang twice' } })).status,
    ).toBe(200);
    expect((await productOf(t, owner, amoxyl.id)).stock).toBe(8);
    expect((await lots(owner.storeId, amoxyl.id))[0]).toEqual({
      lot_number: 'A-2703',
      status: 'sellable',
      qty_on_hand: 8,
      quarantine: false,
    });
    await expectBatchesMatchStock(t, owner);
  });

  it('books an offline sale on the lots the till took, and what no lot held on the unallocated lot, as oversold', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Metformin 500mg', generic_name: 'Metformin' });
    await receiveLots(t, owner, [
      { product_id: med.id, lot_number: 'M1', expiry_date: '2027-01-31', qty: 4 },
      { product_id: med.id, lot_number: 'M2', expiry_date: '2027-06-30', qty: 6 },
    ]);
    const [m1, m2] = await batchRows(t, owner.storeId, med.id);
    const device = (await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: uuid(), name: 'Till 1' } })).body.data
      .device_id as string;
    // The till took 6 from M2 (the box on the shelf), although M1 expires first, then 6 more it had not got.
    const mutation = {
      id: uuid(),
      seq: 1,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload: {
        id: uuid(),
        client_receipt_number: 'FAM-T1-1',
        payment_method: 'Cash',
        lines: [{ product_id: med.id, qty: 12, unit_price: 500, batches: [{ batch_id: m2!.id, qty: 6 }] }],
      },
    };
    const res = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id: device, mutations: [mutation] } });
    expect(res.status, res.text).toBe(200);
    const result = Envelope(PushResponse).parse(res.body).data.results[0]!;
    expect(result.status).toBe('applied');
    expect(result.conflicts).toEqual([
      { kind: 'oversold', product_id: med.id, message: 'not enough stock of Metformin 500mg: 10 available' },
    ]);
    expect((await productOf(t, owner, med.id)).stock).toBe(-2);
    expect(await lots(owner.storeId, med.id)).toEqual([
      { lot_number: 'M1', status: 'sellable', qty_on_hand: 0, quarantine: false },
      { lot_number: 'M2', status: 'sellable', qty_on_hand: 0, quarantine: false },
      { lot_number: 'UNALLOCATED', status: 'sellable', qty_on_hand: -2, quarantine: false },
    ]);
    const sale = Envelope(Transaction).parse(
      (await t.request('GET', `/pos/transactions/${mutation.payload.id}`, { token: owner.token })).body,
    ).data;
    expect(sale.lines[0]!.batches.map((b) => [b.batch_id === m2!.id || b.batch_id === m1!.id ? b.lot_number : 'new', b.qty])).toEqual([
      ['M2', 6],
      ['M1', 4],
      ['new', 2],
    ]);
    await expectBatchesMatchStock(t, owner);
  });

  it('books an offline sale from a lot recalled meanwhile on that lot, with a dispensed_unsellable_batch conflict and the owner notified', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Cotrim 480mg', generic_name: 'Co-trimoxazole' });
    await receiveLots(t, owner, [
      { product_id: med.id, lot_number: 'C1', expiry_date: '2027-01-31', qty: 5 },
      { product_id: med.id, lot_number: 'C2', expiry_date: '2027-06-30', qty: 5 },
    ]);
    const [c1] = await batchRows(t, owner.storeId, med.id);
    const recall = await t.request('POST', '/pharmacy/recalls', {
      token: owner.token,
      body: { product_id: med.id, lot_number: 'C1', reason: 'TMDA recall notice 12/2026' },
    });
    expect(recall.status, recall.text).toBe(201);
    expect((await productOf(t, owner, med.id)).stock).toBe(5);

    // The till sold 3 from C1 before it heard of the recall.
    const device = (await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: uuid(), name: 'Till 1' } })).body.data
      .device_id as string;
    const saleId = uuid();
    const mutation = {
      id: uuid(),
      seq: 1,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload: {
        id: saleId,
        client_receipt_number: 'FAM-T1-2',
        payment_method: 'Cash',
        lines: [{ product_id: med.id, qty: 3, unit_price: 500, batches: [{ batch_id: c1!.id, qty: 3 }] }],
      },
    };
    const res = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id: device, mutations: [mutation] } });
    const result = Envelope(PushResponse).parse(res.body).data.results[0]!;
    const message = '3 Cotrim 480mg dispensed from lot C1 (expiry 2027-01-31), recalled at the time';
    expect([result.status, result.conflicts]).toEqual(['applied', [{ kind: 'dispensed_unsellable_batch', product_id: med.id, message }]]);
    // The recalled lot gave the units; the sellable stock (C2) did not move.
    expect(await lots(owner.storeId, med.id)).toEqual([
      { lot_number: 'C1', status: 'recalled', qty_on_hand: 2, quarantine: false },
      { lot_number: 'C2', status: 'sellable', qty_on_hand: 5, quarantine: false },
    ]);
    expect((await productOf(t, owner, med.id)).stock).toBe(5);
    const sale = Envelope(Transaction).parse((await t.request('GET', `/pos/transactions/${saleId}`, { token: owner.token })).body).data;
    expect(sale.lines[0]!.batches.map((b) => [b.lot_number, b.qty])).toEqual([['C1', 3]]);
    const conflicts = (await t.request('GET', '/sync/conflicts?kind=dispensed_unsellable_batch', { token: owner.token })).body;
    expect(conflicts.data.map((c: { transaction_id: string; message: string }) => [c.transaction_id, c.message])).toEqual([
      [saleId, message],
    ]);
    const notes = (await t.request('GET', '/notifications?category=sales', { token: owner.token })).body.data.notifications as Array<{
      title: string;
      body: string;
    }>;
    expect(notes.map((n) => [n.title, n.body])).toContainEqual([
      `Offline sale ${sale.receipt_number} needs a look: dispensed unsellable batch`,
      message,
    ]);
    await expectBatchesMatchStock(t, owner);
  });
});

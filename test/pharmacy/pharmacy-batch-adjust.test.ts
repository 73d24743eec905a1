import { BatchDetail, Envelope, Product, PushResponse, StockAdjustment, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addDays, localDate } from '../../server/src/lib/time.js';
import type { Session } from '../setup/factories.js';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { newProduct, productOf } from '../setup/suppliers-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('pharmacy: stock adjustments naming a lot, the unallocated lot and switching tracking off', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  let n = 0;
  const uuid = () => `0194f2c0-${String(++n).padStart(4, '0')}-7000-8000-${String(Date.now() % 1e12).padStart(12, '0')}`;
  const today = () => localDate(t.clock.now(), 'Africa/Dar_es_Salaam');
  const inDays = (d: number) => addDays(today(), d);
  const sell = async (s: { token: string }, lines: Array<{ product_id: string; qty: number }>) => {
    const res = await t.request('POST', '/pos/sale', { token: s.token, body: { lines, payment_method: 'Cash' } });
    expect(res.status, res.text).toBe(201);
    return Envelope(Transaction).parse(res.body).data;
  };
  const adjust = (s: { token: string }, productId: string, body: Record<string, unknown>) =>
    t.request('POST', `/inventory/products/${productId}/adjust`, { token: s.token, body: { reason: 'count', ...body } });
  const lots = async (storeId: string, productId: string) =>
    (await batchRows(t, storeId, productId)).map(({ lot_number, status, qty_on_hand, source_batch_id }) => [
      lot_number,
      status,
      qty_on_hand,
      source_batch_id !== null,
    ]);
  const lotId = async (s: Session, productId: string, lot: string) =>
    (await batchRows(t, s.storeId, productId)).find((b) => b.lot_number === lot && b.source_batch_id === null)!.id;
  const detail = async (s: { token: string }, id: string) => {
    const res = await t.request('GET', `/pharmacy/batches/${id}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(BatchDetail).parse(res.body).data;
  };
  const correct = (s: { token: string }, id: string, body: Record<string, unknown>) =>
    t.request('PATCH', `/pharmacy/batches/${id}`, { token: s.token, body });

  it('adjusts a batch-tracked product lot by lot: the lot is required, must be this store’s sellable lot of it, and cannot go below 0', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner);
    const other = await newMedicine(t, owner, {
      name: 'Amoxyl 250mg',
      generic_name: 'Amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
    });
    await receiveLots(t, owner, [
      { product_id: med.id, lot_number: 'A1', expiry_date: inDays(200), qty: 10 },
      { product_id: med.id, lot_number: 'B1', expiry_date: inDays(100), qty: 5 },
      { product_id: other.id, lot_number: 'X1', expiry_date: inDays(100), qty: 3 },
    ]);
    await sell(owner, [{ product_id: med.id, qty: 7 }]);
    const [a1, b1, x1] = [await lotId(owner, med.id, 'A1'), await lotId(owner, med.id, 'B1'), await lotId(owner, other.id, 'X1')];

    const noLot = await adjust(owner, med.id, { qty_change: -1 });
    expect(noLot.status).toBe(400);
    expect(noLot.body.errors).toEqual([
      {
        code: 'VALIDATION_ERROR',
        field: 'batch_id',
        message: 'is required: Panadol 500mg tracks batches, so an adjustment names the lot it counts',
      },
    ]);
    expect((await adjust(owner, med.id, { qty_change: -1, batch_id: x1 })).status).toBe(404);
    const unknown = await adjust(owner, med.id, { qty_change: -1, batch_id: uuid() });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'batch not found']);
    const tooMany = await adjust(owner, med.id, { qty_change: -9, batch_id: a1 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.errors).toEqual([
      { code: 'INSUFFICIENT_STOCK', field: 'qty_change', message: 'not enough stock of Panadol 500mg in lot A1: 8 available' },
    ]);
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['A1', 'sellable', 8, false],
      ['B1', 'sellable', 0, false],
    ]);

    const damaged = await adjust(owner, med.id, { qty_change: -3, batch_id: a1, reason: 'damaged', note: 'box crushed' });
    expect(damaged.status, damaged.text).toBe(200);
    expect(Envelope(Product).parse(damaged.body).data.stock).toBe(5);
    const found = await adjust(owner, med.id, { qty_change: 2, batch_id: b1, reason: 'found' });
    expect(Envelope(Product).parse(found.body).data.stock).toBe(7);
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['A1', 'sellable', 5, false],
      ['B1', 'sellable', 2, false],
    ]);
    const adjustments = Envelope(z.array(StockAdjustment)).parse(
      (await t.request('GET', `/inventory/products/${med.id}/adjustments`, { token: owner.token })).body,
    ).data;
    const delivered = expect.stringMatching(/^delivery .* from Medisel Tanzania$/);
    expect(adjustments.map((a) => [a.qty_change, a.qty_after, a.reason, a.note])).toEqual([
      [2, 7, 'found', null],
      [-3, 5, 'damaged', 'box crushed'],
      [5, 15, 'delivery', delivered],
      [10, 10, 'delivery', delivered],
    ]);
    const a1Detail = await detail(owner, a1);
    expect(a1Detail.movements[0]).toMatchObject({
      kind: 'adjusted',
      qty: -3,
      qty_after: 5,
      stock_change: -3,
      reason: 'damaged',
      note: 'box crushed',
      user_id: owner.userId,
      user_name: 'Asha Mushi',
    });
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select('description')
      .where('entity_id', '=', med.id)
      .where('action', '=', 'stock.adjust')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.description)).toEqual([
      'Adjusted Panadol 500mg lot A1 by -3 (damaged), now 5',
      'Adjusted Panadol 500mg lot B1 by +2 (found), now 7',
    ]);

    // Refunded units wait in quarantine: they are not stock, so no adjustment moves them.
    const sale = await sell(owner, [{ product_id: med.id, qty: 2 }]);
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/refund`, { token: owner.token, body: { reason: 'wrong strength' } })).status,
    ).toBe(200);
    const quarantine = (await batchRows(t, owner.storeId, med.id)).find((b) => b.source_batch_id !== null)!;
    const held = await adjust(owner, med.id, { qty_change: -1, batch_id: quarantine.id });
    expect(held.status).toBe(409);
    expect(held.body.errors[0]).toMatchObject({ code: 'INVALID_STATE', field: 'batch_id' });

    // A product that does not track batches names no lot.
    const plain = await newProduct(t, owner, { stock: 4 });
    const named = await adjust(owner, plain.id, { qty_change: -1, batch_id: a1 });
    expect(named.status).toBe(400);
    expect(named.body.errors[0]).toMatchObject({
      field: 'batch_id',
      message: 'must be left out: Unga wa Ngano 2kg does not track batches',
    });
    expect((await productOf(t, owner, plain.id)).stock).toBe(4);
    await expectBatchesMatchStock(t, owner);
  });

  it('settles the unallocated lot only towards 0, and keeps tracking on while any lot holds units', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner, { name: 'Metformin 500mg', generic_name: 'Metformin' });
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'M1', expiry_date: inDays(300), qty: 4 }]);
    const device = (await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: uuid(), name: 'Till 1' } })).body.data
      .device_id as string;
    const mutation = {
      id: uuid(),
      seq: 1,
      type: 'sale.create',
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      payload: {
        id: uuid(),
        client_receipt_number: 'FAM-T1-1',
        payment_method: 'Cash',
        lines: [{ product_id: med.id, qty: 7, unit_price: 500 }],
      },
    };
    const pushed = await t.request('POST', '/sync/push', { token: owner.token, body: { device_id: device, mutations: [mutation] } });
    expect(Envelope(PushResponse).parse(pushed.body).data.results[0]!.status).toBe('applied');
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['M1', 'sellable', 0, false],
      ['UNALLOCATED', 'sellable', -3, false],
    ]);
    const unallocated = await lotId(owner, med.id, 'UNALLOCATED');
    const message = 'the unallocated lot of Metformin 500mg holds -3: an adjustment may only bring it towards 0 (at most +3)';
    for (const qty_change of [-1, 4]) {
      const res = await adjust(owner, med.id, { qty_change, batch_id: unallocated });
      expect(res.status).toBe(409);
      expect(res.body.errors).toEqual([{ code: 'INVALID_STATE', field: 'qty_change', message }]);
    }
    expect(
      Envelope(Product).parse((await adjust(owner, med.id, { qty_change: 3, batch_id: unallocated, reason: 'count' })).body).data.stock,
    ).toBe(0);
    expect(await lots(owner.storeId, med.id)).toEqual([
      ['M1', 'sellable', 0, false],
      ['UNALLOCATED', 'sellable', 0, false],
    ]);
    // Its number is a placeholder, not a lot to correct.
    const renamed = await correct(owner, unallocated, { lot_number: 'M9', reason: 'typo' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.errors[0]).toMatchObject({ code: 'INVALID_STATE', field: 'lot_number' });

    // Stock is 0 but 2 refunded units wait in quarantine: tracking stays on until they are dealt with.
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'M2', expiry_date: inDays(300), qty: 2 }]);
    const sale = await sell(owner, [{ product_id: med.id, qty: 2 }]);
    expect(
      (await t.request('POST', `/pos/transactions/${sale.id}/refund`, { token: owner.token, body: { reason: 'returned' } })).status,
    ).toBe(200);
    expect((await productOf(t, owner, med.id)).stock).toBe(0);
    const off = await t.request('PATCH', `/inventory/products/${med.id}`, { token: owner.token, body: { track_batches: false } });
    expect(off.status).toBe(422);
    expect(off.body.errors).toEqual([
      {
        code: 'BUSINESS_RULE',
        field: 'track_batches',
        message: 'track_batches cannot be switched off while lot M2 holds units (quarantined); release or dispose of them first',
      },
    ]);
    expect((await productOf(t, owner, med.id)).stock).toBe(0);
    await expectBatchesMatchStock(t, owner);
  });

  it('takes a till’s pushed adjustment of a batch-tracked product only when it names the lot', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner);
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'T1', expiry_date: inDays(300), qty: 6 }]);
    const t1 = await lotId(owner, med.id, 'T1');
    const device = (await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: uuid(), name: 'Till 1' } })).body.data
      .device_id as string;
    const mutation = (seq: number, payload: Record<string, unknown>) => ({
      id: uuid(),
      seq,
      type: 'stock.adjust',
      created_at: new Date(t.clock.now()).toISOString(),
      payload: { product_id: med.id, reason: 'count', ...payload },
    });
    const res = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: { device_id: device, mutations: [mutation(1, { qty_change: -1 }), mutation(2, { qty_change: -2, batch_id: t1 })] },
    });
    expect(res.status, res.text).toBe(200);
    const results = Envelope(PushResponse).parse(res.body).data.results;
    expect(results.map((r) => [r.status, r.error?.code, r.result])).toEqual([
      ['rejected', 'VALIDATION_ERROR', undefined],
      ['applied', undefined, { product_id: med.id, stock: 4 }],
    ]);
    expect(await lots(owner.storeId, med.id)).toEqual([['T1', 'sellable', 4, false]]);
    await expectBatchesMatchStock(t, owner);
  });
});

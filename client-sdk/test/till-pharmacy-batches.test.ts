import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newId } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../../test/setup/pharmacy-factories.js';
import type { Session } from '../../test/setup/factories.js';
import { localDate, migrateLocal, openLocalDb, sqliteFile, Till, TillError } from '@duka/client-sdk';
import { type Harness, openTill, startServer } from './harness.js';

const DAY = 86_400_000;

describe('the pharmacy till: batches, FEFO offline, the lots pushed and pulled', () => {
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
  /** The till's lots of a product, as FEFO sees them. */
  const tillLots = async (till: Till, productId: string) =>
    (await till.batches({ product_id: productId })).map((b) => [b.lot_number, b.expiry_date, b.status, b.qty_on_hand]);
  const serverLots = async (owner: Session, productId: string) =>
    (await batchRows(h.t, owner.storeId, productId)).map((b) => [b.lot_number, b.expiry_date, b.status, b.qty_on_hand]);
  const lotsOf = (receipt: { lines: Array<{ batches: Array<{ lot_number: string; expiry_date: string; qty: number }> }> }) =>
    receipt.lines.map((l) => l.batches.map((b) => [b.lot_number, b.expiry_date, b.qty]));

  it('sells across two lots first-expiry-first offline; the push keeps those lots and the pull brings the server’s batches back', async () => {
    const owner = await pharmacyOwner(h.t);
    const panadol = await newMedicine(h.t, owner);
    await receiveLots(h.t, owner, [
      { product_id: panadol.id, lot_number: 'A-2703', expiry_date: '2027-03-31', qty: 10 },
      { product_id: panadol.id, lot_number: 'B-2701', expiry_date: '2027-01-31', qty: 5 },
    ]);
    const till = await signedIn(owner);
    expect(await tillLots(till, panadol.id)).toEqual([
      ['B-2701', '2027-01-31', 'sellable', 5],
      ['A-2703', '2027-03-31', 'sellable', 10],
    ]);

    // More than the lots hold: the till and the server refuse it alike.
    const tooMany = { lines: [{ product_id: panadol.id, qty: 16 }], payment_method: 'Cash' as const };
    const refusal = { code: 'INSUFFICIENT_STOCK', field: 'lines.0.qty', message: 'not enough stock of Panadol 500mg: 15 available' };
    const online = await h.t.request('POST', '/pos/sale', { token: owner.token, body: tooMany });
    expect(online.status).toBe(409);
    expect({ code: online.body.errors[0].code, field: online.body.errors[0].field, message: online.body.message }).toEqual(refusal);
    const err = await till.sell(tooMany).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TillError);
    expect({ code: (err as TillError).code, field: (err as TillError).field, message: (err as TillError).message }).toEqual(refusal);

    h.net.offline = true;
    const receipt = await till.sell({ lines: [{ product_id: panadol.id, qty: 7 }], payment_method: 'Cash' });
    expect(lotsOf(receipt)).toEqual([
      [
        ['B-2701', '2027-01-31', 5],
        ['A-2703', '2027-03-31', 2],
      ],
    ]);
    expect(await tillLots(till, panadol.id)).toEqual([
      ['B-2701', '2027-01-31', 'sellable', 0],
      ['A-2703', '2027-03-31', 'sellable', 8],
    ]);
    expect(await till.stock(panadol.id)).toBe(8);
    const err2 = await till.sell({ lines: [{ product_id: panadol.id, qty: 9 }], payment_method: 'Cash' }).catch((e: unknown) => e);
    expect([(err2 as TillError).code, (err2 as TillError).field, (err2 as TillError).message]).toEqual([
      'INSUFFICIENT_STOCK',
      'lines.0.qty',
      'not enough stock of Panadol 500mg: 8 available',
    ]);

    h.net.offline = false;
    await till.syncNow();
    const synced = await till.transaction(receipt.id);
    expect(synced?.sync_state).toBe('synced');
    expect(lotsOf(synced!)).toEqual(lotsOf(receipt));
    expect(await till.conflicts()).toEqual([]);
    expect(await serverLots(owner, panadol.id)).toEqual([
      ['A-2703', '2027-03-31', 'sellable', 8],
      ['B-2701', '2027-01-31', 'sellable', 0],
    ]);
    expect(await tillLots(till, panadol.id)).toEqual([
      ['B-2701', '2027-01-31', 'sellable', 0],
      ['A-2703', '2027-03-31', 'sellable', 8],
    ]);
    await expectBatchesMatchStock(h.t, owner);
  });

  it('does not sell a lot on or after its expiry date (the organisation’s day), puts a voided sale’s units back on its lots, and adjusts a lot', async () => {
    const owner = await pharmacyOwner(h.t);
    const amoxyl = await newMedicine(h.t, owner, {
      name: 'Amoxyl 250mg',
      generic_name: 'Amoxicillin',
      strength: '250 mg',
      dosage_form: 'capsule',
    });
    const tomorrow = localDate(h.t.clock.now() + DAY, 'Africa/Dar_es_Salaam');
    await receiveLots(h.t, owner, [
      { product_id: amoxyl.id, lot_number: 'SHORT', expiry_date: tomorrow, qty: 3 },
      { product_id: amoxyl.id, lot_number: 'LONG', expiry_date: '2028-06-30', qty: 4 },
    ]);
    const till = await signedIn(owner);
    h.net.offline = true;
    try {
      const first = await till.sell({ lines: [{ product_id: amoxyl.id, qty: 1 }], payment_method: 'Cash' });
      expect(lotsOf(first)).toEqual([[['SHORT', tomorrow, 1]]]);

      h.t.clock.advance(DAY);
      const second = await till.sell({ lines: [{ product_id: amoxyl.id, qty: 2 }], payment_method: 'Cash' });
      expect(lotsOf(second)).toEqual([[['LONG', '2028-06-30', 2]]]);
      const err = await till.sell({ lines: [{ product_id: amoxyl.id, qty: 3 }], payment_method: 'Cash' }).catch((e: unknown) => e);
      expect([(err as TillError).code, (err as TillError).message]).toEqual([
        'INSUFFICIENT_STOCK',
        'not enough stock of Amoxyl 250mg: 2 available',
      ]);

      await till.void(second.id, 'rung up twice');
      expect(await tillLots(till, amoxyl.id)).toEqual([
        ['SHORT', tomorrow, 'sellable', 2],
        ['LONG', '2028-06-30', 'sellable', 4],
      ]);
      // Stock counts sellable lots by status: SHORT is past its date but not yet marked expired.
      expect(await till.stock(amoxyl.id)).toBe(6);
      // A count finds one more box of LONG: the adjustment names the lot.
      const lotLong = (await till.batches({ product_id: amoxyl.id })).find((b) => b.lot_number === 'LONG')!;
      expect(await till.adjustStock({ product_id: amoxyl.id, qty_change: 1, reason: 'count', batch_id: lotLong.id })).toBe(7);
    } finally {
      h.net.offline = false;
    }
    await till.syncNow();
    expect(await till.conflicts()).toEqual([]);
    expect(await till.rejected()).toEqual([]);
    expect(await serverLots(owner, amoxyl.id)).toEqual([
      ['LONG', '2028-06-30', 'sellable', 5],
      ['SHORT', tomorrow, 'sellable', 2],
    ]);
    expect(await tillLots(till, amoxyl.id)).toEqual([
      ['SHORT', tomorrow, 'sellable', 2],
      ['LONG', '2028-06-30', 'sellable', 5],
    ]);
    expect(await till.stock(amoxyl.id)).toBe(7);
    await expectBatchesMatchStock(h.t, owner);
  });

  it('the issue’s test: offline across two lots, one recalled on the server meanwhile; booked on the till’s lots with a conflict and a notification, and the recalled lot is not sold after the pull', async () => {
    const owner = await pharmacyOwner(h.t);
    const panadol = await newMedicine(h.t, owner);
    await receiveLots(h.t, owner, [
      { product_id: panadol.id, lot_number: 'P-01', expiry_date: '2027-01-31', qty: 4 },
      { product_id: panadol.id, lot_number: 'P-02', expiry_date: '2027-06-30', qty: 10 },
    ]);
    const till = await signedIn(owner);
    h.net.offline = true;
    const receipt = await till.sell({ lines: [{ product_id: panadol.id, qty: 6 }], payment_method: 'Cash' });
    expect(lotsOf(receipt)).toEqual([
      [
        ['P-01', '2027-01-31', 4],
        ['P-02', '2027-06-30', 2],
      ],
    ]);

    // Meanwhile the owner recalls lot P-02 on the server: its 10 units leave stock.
    const recall = await h.t.request('POST', '/pharmacy/recalls', {
      token: owner.token,
      body: { product_id: panadol.id, lot_number: 'P-02', reason: 'TMDA recall notice' },
    });
    expect(recall.status, recall.text).toBe(201);
    // The till's sale is not on the server yet: no sale of the lot to call back.
    expect([recall.body.data.stores.map((st: { stock_removed: number }) => st.stock_removed), recall.body.data.sales]).toEqual([[10], []]);
    expect(await serverLots(owner, panadol.id)).toEqual([
      ['P-01', '2027-01-31', 'sellable', 4],
      ['P-02', '2027-06-30', 'recalled', 10],
    ]);

    h.net.offline = false;
    await till.syncNow();
    // Booked on the boxes that left the shelf: 4 from P-01 and 2 from the recalled P-02.
    const server = await h.t.request('GET', `/pos/transactions/${receipt.id}`, { token: owner.token });
    expect(lotsOf(server.body.data)).toEqual(lotsOf(receipt));
    expect(await serverLots(owner, panadol.id)).toEqual([
      ['P-01', '2027-01-31', 'sellable', 0],
      ['P-02', '2027-06-30', 'recalled', 8],
    ]);
    const message = '2 Panadol 500mg dispensed from lot P-02 (expiry 2027-06-30), recalled at the time';
    expect((await till.conflicts()).map((c) => [c.kind, c.message, c.product_id, c.transaction_id])).toEqual([
      ['dispensed_unsellable_batch', message, panadol.id, receipt.id],
    ]);
    const conflicts = await h.t.request('GET', '/sync/conflicts?kind=dispensed_unsellable_batch', { token: owner.token });
    expect(conflicts.body.data.map((c: { message: string; detail: unknown }) => [c.message, c.detail])).toEqual([
      [message, { batch_id: expect.any(String), lot_number: 'P-02', expiry_date: '2027-06-30', status: 'recalled', qty: 2 }],
    ]);
    const synced = await till.transaction(receipt.id);
    expect((await till.notifications()).filter((n) => n.body === message)).toHaveLength(1);
    expect(synced?.receipt_number).toEqual(expect.any(String));
    await expectBatchesMatchStock(h.t, owner);
    // Once pushed, the recall lists the till's sale among those that dispensed the lot.
    const later = await h.t.request('GET', `/pharmacy/recalls/${recall.body.data.id}`, { token: owner.token });
    expect(later.body.data.sales.map((x: { transaction_id: string; qty: number }) => [x.transaction_id, x.qty])).toEqual([[receipt.id, 2]]);

    // After the pull the till knows P-02 is recalled and P-01 empty: nothing left to sell.
    expect(await tillLots(till, panadol.id)).toEqual([
      ['P-01', '2027-01-31', 'sellable', 0],
      ['P-02', '2027-06-30', 'recalled', 8],
    ]);
    expect(await till.stock(panadol.id)).toBe(0);
    h.net.offline = true;
    const err = await till.sell({ lines: [{ product_id: panadol.id, qty: 1 }], payment_method: 'Cash' }).catch((e: unknown) => e);
    h.net.offline = false;
    expect([(err as TillError).code, (err as TillError).field, (err as TillError).message]).toEqual([
      'INSUFFICIENT_STOCK',
      'lines.0.qty',
      'not enough stock of Panadol 500mg: 0 available',
    ]);
  });
});

describe('the pharmacy till: a replica from before local migration 0004', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-till-batches-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('moves the batches an older SDK kept as plain rows into the batches table', async () => {
    const file = path.join(dir, 'old.db');
    const old = openLocalDb(sqliteFile(file));
    expect(await migrateLocal(old, '0003_product_generic_name')).toEqual([
      '0001_replica_and_queue',
      '0002_conflicts',
      '0003_product_generic_name',
    ]);
    const productId = newId();
    const batch = (lot_number: string, expiry_date: string, qty_on_hand: number, received_at: string) => {
      const id = newId();
      const data = {
        id,
        store_id: newId(),
        product_id: productId,
        product_name: 'Panadol 500mg',
        lot_number,
        expiry_date,
        qty_on_hand,
        cost_price: 300,
        status: 'sellable',
        supplier_id: null,
        delivery_id: null,
        source_batch_id: null,
        transaction_id: null,
        received_at,
        updated_at: received_at,
      };
      return { entity: 'batch', id, data: JSON.stringify(data) };
    };
    // One expiry, two receipts: the one received first goes first.
    const later = batch('L-2', '2027-05-31', 7, '2026-10-02T08:00:00.000Z');
    const first = batch('L-1', '2027-05-31', 3, '2026-09-01T08:00:00.000Z');
    await old.insertInto('rows').values([later, first]).execute();
    await old.destroy();

    const till = await Till.open({ baseUrl: 'http://127.0.0.1:9/api/v1', dbPath: file, deviceName: 'Counter 1', autoSync: false });
    try {
      expect((await till.batches({ product_id: productId })).map((b) => [b.id, b.lot_number, b.qty_on_hand, b.received_at])).toEqual([
        [first.id, 'L-1', 3, '2026-09-01T08:00:00.000Z'],
        [later.id, 'L-2', 7, '2026-10-02T08:00:00.000Z'],
      ]);
    } finally {
      await till.close();
    }
    const check = openLocalDb(sqliteFile(file));
    expect(await check.selectFrom('rows').select('id').where('entity', '=', 'batch').execute()).toEqual([]);
    expect(await check.selectFrom('batches').select(['lot_number', 'received_at']).orderBy('received_at').execute()).toEqual([
      { lot_number: 'L-1', received_at: Date.parse('2026-09-01T08:00:00.000Z') },
      { lot_number: 'L-2', received_at: Date.parse('2026-10-02T08:00:00.000Z') },
    ]);
    await check.destroy();
  });
});

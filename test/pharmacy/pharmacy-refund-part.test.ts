/**
 * Issue 51: part of a pharmacy sale refunded. The refunded units go into quarantine per the lot
 * they were taken from, in the order the sale took them (FEFO): 5 tablets sold as 2 of lot A and 3
 * of lot B, 3 refunded are 2 back from A and 1 from B; the last 2 are B's. Stock and the lots agree.
 */
import { Envelope, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import type { Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('a pharmacy sale partly refunded: units back into quarantine per the lot taken', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await pharmacyOwner(t);
  });
  afterAll(() => t.close());

  const refund = async (id: string, productId: string, qty: number) => {
    const res = await t.request('POST', `/pos/transactions/${id}/refund`, {
      token: owner.token,
      body: { reason: 'returned', lines: [{ product_id: productId, qty }] },
    });
    expect(res.status, res.text).toBe(200);
    return Envelope(Transaction).parse(res.body).data;
  };

  it('3 of 5 back: 2 to lot A, 1 to lot B, the sale still paid; the last 2 to B, refunded', async () => {
    const med = await newMedicine(t, owner, { name: 'Amoxil 250mg' });
    await receiveLots(t, owner, [
      { product_id: med.id, lot_number: 'A', expiry_date: '2027-03-01', qty: 2 },
      { product_id: med.id, lot_number: 'B', expiry_date: '2028-03-01', qty: 10 },
    ]);
    const res = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: med.id, qty: 5 }], payment_method: 'Cash' },
    });
    expect(res.status, res.text).toBe(201);
    const sale = Envelope(Transaction).parse(res.body).data;
    const lot = (n: string) => sale.lines[0]!.batches.find((b) => b.lot_number === n)!.batch_id;
    expect(sale.lines[0]!.batches.map((b) => [b.lot_number, b.qty])).toEqual([
      ['A', 2],
      ['B', 3],
    ]);
    const quarantined = async () =>
      (await batchRows(t, owner.storeId, med.id))
        .filter((b) => b.source_batch_id !== null)
        .map((b) => [b.source_batch_id, b.qty_on_hand])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0])) || Number(x[1]) - Number(y[1]));
    const sort = (rows: Array<[string, number]>) => rows.sort((x, y) => x[0].localeCompare(y[0]) || x[1] - y[1]);

    expect(await refund(sale.id, med.id, 3)).toMatchObject({ status: 'paid' });
    expect(await quarantined()).toEqual(
      sort([
        [lot('A'), 2],
        [lot('B'), 1],
      ]),
    );
    await expectBatchesMatchStock(t, owner);

    expect(await refund(sale.id, med.id, 2)).toMatchObject({ status: 'refunded' });
    expect(await quarantined()).toEqual(
      sort([
        [lot('A'), 2],
        [lot('B'), 1],
        [lot('B'), 2],
      ]),
    );
    await expectBatchesMatchStock(t, owner);
  });
});

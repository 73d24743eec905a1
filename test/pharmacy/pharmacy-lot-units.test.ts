/**
 * Issue 51: lots follow the product's unit. A piece medicine's lot answers exactly as before (and
 * refuses half a tablet); a measured batch-tracked product's lot is kept in thousandths and
 * answered in its unit, through receipt, adjustment, its ledger and the expiring list.
 */
import { BatchDetail, Envelope, ExpiringPage } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '../../server/src/lib/time.js';
import type { Session } from '../setup/factories.js';
import { batchRows, expectBatchesMatchStock, newMedicine, pharmacyOwner, receiveLots } from '../setup/pharmacy-factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe("pharmacy: lots in the product's unit", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const inDays = (d: number) => addDays(localDate(t.clock.now(), 'Africa/Dar_es_Salaam'), d);
  const adjust = (s: Session, productId: string, body: Record<string, unknown>) =>
    t.request('POST', `/inventory/products/${productId}/adjust`, { token: s.token, body: { reason: 'count', ...body } });
  const lot = async (s: Session, productId: string, lotNumber: string) => {
    const row = (await batchRows(t, s.storeId, productId)).find((b) => b.lot_number === lotNumber && b.source_batch_id === null)!;
    const res = await t.request('GET', `/pharmacy/batches/${row.id}`, { token: s.token });
    expect(res.status, res.text).toBe(200);
    return { row, detail: Envelope(BatchDetail).parse(res.body).data };
  };
  const stock = async (s: Session, id: string) => (await t.request('GET', `/inventory/products/${id}`, { token: s.token })).body.data.stock;

  it('keeps a piece medicine’s lot whole and as it was answered, and refuses half a tablet naming qty_change', async () => {
    const owner = await pharmacyOwner(t);
    const med = await newMedicine(t, owner);
    await receiveLots(t, owner, [{ product_id: med.id, lot_number: 'A1', expiry_date: inDays(200), qty: 10 }]);
    const { row, detail } = await lot(owner, med.id, 'A1');
    expect(detail).toMatchObject({ lot_number: 'A1', unit: 'piece', qty_on_hand: 10 });
    const half = await adjust(owner, med.id, { qty_change: 0.5, batch_id: row.id });
    expect(half.status).toBe(400);
    expect(half.body.errors[0]).toMatchObject({ field: 'qty_change', message: 'a product sold by the piece takes whole numbers' });
    expect((await adjust(owner, med.id, { qty_change: -2, batch_id: row.id })).status).toBe(200);
    const after = (await lot(owner, med.id, 'A1')).detail;
    expect(after.qty_on_hand).toBe(8);
    expect(after.movements.map((m) => [m.kind, m.qty, m.qty_after, m.stock_change])).toEqual([
      ['adjusted', -2, 8, -2],
      ['received', 10, 10, 10],
    ]);
    expect(await stock(owner, med.id)).toBe(8);
    await expectBatchesMatchStock(t, owner);
  });

  it('receives, adjusts and lists a measured (litre) lot exactly, kept in millilitres', async () => {
    const owner = await pharmacyOwner(t);
    const syrup = await newMedicine(t, owner, { name: 'Glycerin BP', generic_name: 'Glycerol', strength: '100%', dosage_form: 'syrup' });
    await t.db.db.updateTable('products').set({ unit: 'l' }).where('org_id', '=', owner.orgId).where('id', '=', syrup.id).execute();
    await receiveLots(t, owner, [{ product_id: syrup.id, lot_number: 'G1', expiry_date: inDays(30), qty: 2.5, unit_cost: 8000 }]);
    const { row } = await lot(owner, syrup.id, 'G1');
    expect(row.qty_on_hand).toBe(2500);
    expect((await adjust(owner, syrup.id, { qty_change: -0.25, batch_id: row.id })).status).toBe(200);
    const { detail } = await lot(owner, syrup.id, 'G1');
    expect(detail).toMatchObject({ unit: 'l', qty_on_hand: 2.25 });
    expect(detail.movements.map((m) => [m.kind, m.qty, m.qty_after, m.stock_change])).toEqual([
      ['adjusted', -0.25, 2.25, -0.25],
      ['received', 2.5, 2.5, 2.5],
    ]);
    expect(await stock(owner, syrup.id)).toBe(2.25);
    const expiring = await t.request('GET', '/pharmacy/expiring?days=60', { token: owner.token });
    expect(expiring.status, expiring.text).toBe(200);
    const page = ExpiringPage.parse(expiring.body);
    // 2.25 l × 8,000 = 18,000.
    expect(page.data.map((b) => [b.lot_number, b.unit, b.qty, b.value_at_cost])).toEqual([['G1', 'l', 2.25, 18_000]]);
    expect(page.meta).toMatchObject({ total_qty: 2.25, total_value_at_cost: 18_000 });
    await expectBatchesMatchStock(t, owner);
  });
});

/**
 * Issue 52: a till's stock-take counts pushed as `stock_take.count`. Two devices' counts are summed,
 * the pushing device is recorded on each; a count sent again (the same push after a lost answer,
 * or the same count id under another mutation) is not added twice; a count of a closed stock-take,
 * of a product outside it, or by a cashier without the stock permission is rejected alone.
 */
import { Envelope, PushResponse, StockTake } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync: stock_take.count', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const uuid = () => crypto.randomUUID();
  const call = async (s: { token: string }, method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { token: s.token, body });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const device = async (s: { token: string }) =>
    (await call(s, 'POST', '/sync/devices', { device_id: uuid(), name: 'Counter' })).device_id as string;
  const push = async (s: { token: string }, device_id: string, mutations: unknown[]) => {
    const res = await t.request('POST', '/sync/push', { token: s.token, body: { device_id, mutations } });
    expect(res.status, res.text).toBe(200);
    return Envelope(PushResponse).parse(res.body).data.results;
  };
  const counting = (stock_take_id: string) => {
    let seq = 0;
    return (payload: { product_id: string; qty: number; id?: string }, mutationId = uuid()) => ({
      id: mutationId,
      seq: ++seq,
      type: 'stock_take.count',
      created_at: new Date(t.clock.now()).toISOString(),
      payload: { stock_take_id, id: uuid(), ...payload },
    });
  };
  const review = async (s: { token: string }, id: string) => StockTake.parse(await call(s, 'GET', `/inventory/stock-takes/${id}`));

  it('sums two devices’ counts; a replayed push and a count id sent again add nothing; each count keeps its device', async () => {
    const owner = await registerOwner(t);
    const soda = await call(owner, 'POST', '/inventory/products', { name: 'Soda', selling_price: 1000, cost_price: 700, stock: 40 });
    const rice = await call(owner, 'POST', '/inventory/products', { name: 'Mchele', unit: 'kg', selling_price: 3600, stock: 3 });
    const take = await call(owner, 'POST', '/inventory/stock-takes', { scope: 'products', product_ids: [soda.id, rice.id] });
    const [d1, d2] = [await device(owner), await device(owner)];
    const [m1, m2] = [counting(take.id), counting(take.id)];

    const first = [m1({ product_id: soda.id, qty: 1 }), m1({ product_id: soda.id, qty: 1 }), m1({ product_id: rice.id, qty: 2.375 })];
    expect((await push(owner, d1, first)).map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    expect((await push(owner, d2, [m2({ product_id: soda.id, qty: 7 })])).map((r) => r.status)).toEqual(['applied']);
    // The same push again (its answer lost): answered from the record.
    expect((await push(owner, d1, first)).map((r) => r.status)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    // The same count under a new mutation (a till that lost its queue's record): the count id is known.
    const again = m1({ product_id: soda.id, qty: 1, id: first[0]!.payload.id });
    expect((await push(owner, d1, [again]))[0]).toMatchObject({ status: 'applied', result: { count_id: first[0]!.payload.id } });

    const r = await review(owner, take.id);
    const line = (id: string) => r.lines.find((l) => l.product_id === id)!;
    expect([line(soda.id).counted, line(soda.id).expected, line(soda.id).variance_value]).toEqual([9, 40, -21700]);
    expect([line(rice.id).counted, line(rice.id).variance]).toEqual([2.375, -0.625]);
    const devices = await t.db.db
      .selectFrom('stock_take_counts')
      .select(['device_id'])
      .where('stock_take_id', '=', take.id)
      .where('product_id', '=', soda.id)
      .execute();
    expect(devices.map((d) => d.device_id).sort()).toEqual([d1, d1, d2].sort());
  });

  it('rejects alone a count of a product outside the count, of a closed count, and by a cashier without the stock permission', async () => {
    const owner = await registerOwner(t);
    const cashier = await createStaff(t, owner, {});
    const soda = await call(owner, 'POST', '/inventory/products', { name: 'Soda', selling_price: 1000, stock: 40 });
    const unga = await call(owner, 'POST', '/inventory/products', { name: 'Unga', selling_price: 2500, stock: 30 });
    const take = await call(owner, 'POST', '/inventory/stock-takes', { scope: 'products', product_ids: [soda.id] });
    const m = counting(take.id);
    const d = await device(owner);
    const results = await push(owner, d, [
      m({ product_id: unga.id, qty: 1 }),
      m({ product_id: soda.id, qty: 0.5 }),
      m({ product_id: soda.id, qty: 4 }),
    ]);
    expect(results.map((r) => [r.status, r.error?.code])).toEqual([
      ['rejected', 'VALIDATION_ERROR'],
      ['rejected', 'VALIDATION_ERROR'],
      ['applied', undefined],
    ]);
    const dc = await device(cashier);
    const byCashier = await push(cashier, dc, [counting(take.id)({ product_id: soda.id, qty: 1 })]);
    expect([byCashier[0]!.status, byCashier[0]!.error?.code]).toEqual(['rejected', 'FORBIDDEN']);
    await call(owner, 'POST', `/inventory/stock-takes/${take.id}/cancel`);
    const late = await push(owner, d, [{ ...m({ product_id: soda.id, qty: 1 }) }]);
    expect([late[0]!.status, late[0]!.error?.code]).toEqual(['rejected', 'INVALID_STATE']);
    expect((await review(owner, take.id)).lines[0]!.counted).toBe(4);
  });
});

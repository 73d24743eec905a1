/**
 * A till's shift through sync (issue 37): `shift.open`, the day's mutations carrying the till's
 * `shift_id`, `shift.close`; the same services as REST, so the server's report is exact. A replayed
 * push changes nothing; a shift id the server cannot use never costs a sale.
 */
import { Envelope, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('sync: shift.open, mutations with shift_id, shift.close', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const uuid = () => crypto.randomUUID();
  const post = async (token: string, path: string, body: unknown) => {
    const res = await t.request('POST', path, { token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };

  it('books the till’s day to its shift and closes it with exact figures; a replayed push changes nothing', async () => {
    const owner = await registerOwner(t);
    const cashier = await createStaff(t, owner, { can_refund: true });
    const stranger = await registerOwner(t);
    const strangersShift = await post(stranger.token, '/pos/shifts', { opening_float: 0 });
    const soda = await post(owner.token, '/inventory/products', { name: 'Soda', selling_price: 1000, stock: 50 });
    const { device_id } = await post(cashier.token, '/sync/devices', { device_id: uuid(), name: 'Till 1' });

    const shiftId = uuid();
    const customerId = uuid();
    const saleIds = [uuid(), uuid(), uuid(), uuid()];
    const start = t.clock.now() - 3_600_000;
    let seq = 0;
    const m = (type: string, payload: Record<string, unknown>) => ({
      id: uuid(),
      seq: ++seq,
      type,
      created_at: new Date(start + seq * 60_000).toISOString(),
      payload,
    });
    const line = (qty: number) => [{ product_id: soda.id, qty, unit_price: 1000 }];
    const sale = (i: number, qty: number, method: string, extra: Record<string, unknown> = {}) =>
      m('sale.create', { id: saleIds[i], client_receipt_number: `MAD-T1-${i + 1}`, lines: line(qty), payment_method: method, ...extra });
    const mutations = [
      m('shift.open', { id: shiftId, opening_float: 30000, till_number: 'T1' }),
      sale(0, 2, 'Cash', { shift_id: shiftId }),
      sale(1, 1, 'M-Pesa', { shift_id: shiftId }),
      // Another organisation's shift: not this till's to use, so the pusher's open shift is.
      sale(2, 1, 'Cash', { shift_id: strangersShift.id }),
      m('customer.upsert', { id: customerId, name: 'Halima Said' }),
      sale(3, 2, 'Credit', { shift_id: shiftId, customer_id: customerId }),
      m('sale.refund', { transaction_id: saleIds[0], reason: 'flat', shift_id: shiftId }),
      m('expense.create', { id: uuid(), title: 'Maji', category: 'Supplies', amount: 500, payment_method: 'Cash', shift_id: shiftId }),
      m('credit.payment', { id: uuid(), customer_id: customerId, amount: 700, method: 'Cash', shift_id: shiftId }),
      m('shift.close', { shift_id: shiftId, counted: { Cash: 31000, 'M-Pesa': 1000 }, note: 'coins short' }),
    ];
    const push = async () =>
      Envelope(PushResponse).parse((await t.request('POST', '/sync/push', { token: cashier.token, body: { device_id, mutations } })).body)
        .data;

    const first = await push();
    expect(first.results.map((r) => [r.status, r.error?.message])).toEqual(mutations.map(() => ['applied', undefined]));
    expect(first.results[0]!.result).toEqual({ shift_id: shiftId, status: 'open' });
    expect(first.results[9]!.result).toEqual({ shift_id: shiftId, status: 'closed', over_short: -200 });

    const report = async () => {
      const res = await t.request('GET', `/pos/shifts/${shiftId}`, { token: owner.token });
      expect(res.status, res.text).toBe(200);
      return res.body.data;
    };
    const closed = await report();
    expect(closed).toMatchObject({
      status: 'closed',
      device_id,
      till_number: 'T1',
      opening_float: 30000,
      close_note: 'coins short',
      opened_at: new Date(start + 60_000).toISOString(),
      closed_at: new Date(start + 10 * 60_000).toISOString(),
    });
    expect(
      closed.report.methods.map((r: Record<string, unknown>) => [
        r.method,
        r.sales,
        r.refunds,
        r.credit_payments,
        r.payouts,
        r.expected,
        r.counted,
        r.over_short,
      ]),
    ).toEqual([
      ['Cash', 3000, 2000, 700, 500, 31200, 31000, -200],
      ['M-Pesa', 1000, 0, 0, 0, 1000, 1000, 0],
      ['Credit', 2000, 0, 0, 0, null, null, null],
    ]);
    expect(closed.report).toMatchObject({ sales_count: 4, refund_count: 1, payout_count: 1, credit_payment_count: 1 });
    const shiftOf = await t.db.db
      .selectFrom('transactions')
      .select(['id', 'shift_id', 'reversal_shift_id'])
      .where('org_id', '=', owner.orgId)
      .where('id', 'in', saleIds)
      .execute();
    expect(shiftOf.map((r) => [r.shift_id, r.reversal_shift_id]).sort()).toEqual([
      [shiftId, null],
      [shiftId, null],
      [shiftId, null],
      [shiftId, shiftId],
    ]);

    // The same push again (a till that lost the answer): every result as recorded, nothing new.
    const again = await push();
    expect(again.results.map((r) => r.status)).toEqual(mutations.map(() => 'duplicate'));
    expect(again.results[9]!.result).toEqual(first.results[9]!.result);
    expect((await report()).report).toEqual(closed.report);
    const shifts = await t.request('GET', '/pos/shifts', { token: owner.token });
    expect(shifts.body.meta.total).toBe(1);

    // Opening the same shift again under a new mutation answers it; closing it again is refused.
    const more = [
      { ...m('shift.open', { id: shiftId, opening_float: 30000 }) },
      { ...m('shift.close', { shift_id: shiftId, counted: { Cash: 0 } }) },
    ];
    const later = Envelope(PushResponse).parse(
      (await t.request('POST', '/sync/push', { token: cashier.token, body: { device_id, mutations: more } })).body,
    ).data;
    expect(later.results.map((r) => r.status)).toEqual(['applied', 'rejected']);
    expect(later.results[0]!.result).toEqual({ shift_id: shiftId, status: 'closed' });
    expect(later.results[1]!.error).toEqual({ code: 'INVALID_STATE', message: 'this shift is already closed' });
    expect((await report()).report).toEqual(closed.report);
  });

  it('books a sale whose shift the server does not know to no shift, rather than refusing it', async () => {
    const owner = await registerOwner(t);
    const soda = await post(owner.token, '/inventory/products', { name: 'Soda', selling_price: 1000, stock: 50 });
    const { device_id } = await post(owner.token, '/sync/devices', { device_id: uuid(), name: 'Till 1' });
    const id = uuid();
    const res = Envelope(PushResponse).parse(
      (
        await t.request('POST', '/sync/push', {
          token: owner.token,
          body: {
            device_id,
            mutations: [
              {
                id: uuid(),
                seq: 1,
                type: 'sale.create',
                created_at: new Date(t.clock.now() - 1000).toISOString(),
                payload: {
                  id,
                  client_receipt_number: 'MAD-T1-1',
                  lines: [{ product_id: soda.id, qty: 1, unit_price: 1000 }],
                  payment_method: 'Cash',
                  shift_id: uuid(),
                },
              },
            ],
          },
        })
      ).body,
    ).data;
    expect(res.results[0]!.status).toBe('applied');
    const row = await t.db.db
      .selectFrom('transactions')
      .select('shift_id')
      .where('org_id', '=', owner.orgId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.shift_id).toBeNull();
  });
});

/**
 * Which shift a till's pushed money may be booked into (issue 49 item 12): its own cashier's open
 * shift, or one its own device opened; never another cashier's, never a closed one. Such a mutation
 * is still applied (an offline sale is never lost) and a `shift` conflict is recorded for the owner;
 * the other cashier's report, open or closed, does not move by a shilling.
 */
import { Envelope, type Mutation, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe("sync: a till books money only into its own cashier's (or its own device's) open shift", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const uuid = () => crypto.randomUUID();
  const call = async (method: 'GET' | 'POST', token: string, path: string, body?: unknown, status = [200, 201]) => {
    const res = await t.request(method, path, { token, body });
    expect(status, res.text).toContain(res.status);
    return res.body.data;
  };
  const push = async (token: string, device_id: string, mutations: Mutation[]) =>
    Envelope(PushResponse).parse((await t.request('POST', '/sync/push', { token, body: { device_id, mutations } })).body).data;
  /** Cash expected and the totals of a shift's report, read by the owner. */
  const cash = async (owner: Session, id: string) => {
    const { report } = await call('GET', owner.token, `/pos/shifts/${id}`);
    const row = report.methods.find((m: { method: string }) => m.method === 'Cash');
    return { expected: row?.expected ?? report.opening_float, totals: report.totals };
  };
  const conflicts = async (owner: Session) => {
    const res = await t.request('GET', '/sync/conflicts?kind=shift&page_size=100', { token: owner.token });
    expect(res.status, res.text).toBe(200);
    return res.body.data as Array<{ message: string; mutation_id: string; transaction_id: string | null; detail: Record<string, unknown> }>;
  };
  const queue = (start: number) => {
    let seq = 0;
    return (type: string, payload: Record<string, unknown>): Mutation => ({
      id: uuid(),
      seq: ++seq,
      type: type as Mutation['type'],
      created_at: new Date(start + seq * 60_000).toISOString(),
      payload,
    });
  };

  it("books a sale, expense or refund naming another cashier's shift, open or closed, into the pusher's own shift, with a conflict; a replay changes nothing", async () => {
    const owner = await registerOwner(t);
    const x = await createStaff(t, owner, { first_name: 'Asha', can_refund: true });
    const y = await createStaff(t, owner, { first_name: 'Baraka' });
    const w = await createStaff(t, owner, { first_name: 'Chausiku' });
    const soda = await call('POST', owner.token, '/inventory/products', { name: 'Soda', selling_price: 5000, stock: 50 });

    // Y's day is done: closed level, nothing short. W is still selling from a float of 10,000.
    const yShift = await call('POST', y.token, '/pos/shifts', { opening_float: 0 });
    const yClosed = await call('POST', y.token, `/pos/shifts/${yShift.id}/close`, { counted: { Cash: 0 } });
    expect(yClosed.report.totals).toMatchObject({ expected: 0, counted: 0, over_short: 0 });
    const wShift = await call('POST', w.token, '/pos/shifts', { opening_float: 10000 });

    const { device_id } = await call('POST', x.token, '/sync/devices', { device_id: uuid(), name: 'Till 2' });
    const xShift = uuid();
    const m = queue(t.clock.now() - 3_600_000);
    const saleIds = [uuid(), uuid(), uuid()];
    const customerId = uuid();
    const sale = (i: number, shift_id: string, extra: Record<string, unknown> = {}) =>
      m('sale.create', {
        id: saleIds[i],
        client_receipt_number: `MAD-T2-${i + 1}`,
        lines: [{ product_id: soda.id, qty: 1, unit_price: 5000 }],
        payment_method: 'Cash',
        shift_id,
        ...extra,
      });
    const mutations = [
      m('shift.open', { id: xShift, opening_float: 20000 }),
      sale(0, yShift.id),
      m('expense.create', { id: uuid(), title: 'Maji', category: 'Supplies', amount: 1000, payment_method: 'Cash', shift_id: wShift.id }),
      sale(1, xShift),
      m('sale.refund', { transaction_id: saleIds[1], reason: 'flat', shift_id: wShift.id }),
      m('customer.upsert', { id: customerId, name: 'Halima Said' }),
      sale(2, xShift, { payment_method: 'Credit', customer_id: customerId }),
      m('credit.payment', { id: uuid(), customer_id: customerId, amount: 2000, method: 'Cash', shift_id: yShift.id }),
    ];
    const first = await push(x.token, device_id, mutations);
    expect(first.results.map((r) => [r.status, r.conflicts?.map((c) => c.kind) ?? []])).toEqual([
      ['applied', []],
      ['applied', ['shift']],
      ['applied', ['shift']],
      ['applied', []],
      ['applied', ['shift']],
      ['applied', []],
      ['applied', []],
      ['applied', ['shift']],
    ]);
    expect(first.results[1]!.conflicts![0]!.message).toBe(
      `the till named shift ${yShift.id} of another cashier: a till books only into its own cashier's shift or its own till's, so this is booked to the pusher's open shift ${xShift}`,
    );

    // Y's closed report and W's open one are exactly as before; X's drawer has it all:
    // 20,000 + 5,000 + 5,000 − 1,000 (payout) − 5,000 (refund) + 2,000 (credit payment) = 26,000.
    expect((await call('GET', owner.token, `/pos/shifts/${yShift.id}`)).report).toEqual(yClosed.report);
    expect(await cash(owner, wShift.id)).toMatchObject({ expected: 10000 });
    expect(await cash(owner, xShift)).toMatchObject({ expected: 26000 });
    const booked = await call('GET', owner.token, `/pos/transactions/${saleIds[0]}`);
    expect([booked.shift_id, booked.reversal_shift_id]).toEqual([xShift, null]);
    const refunded = await call('GET', owner.token, `/pos/transactions/${saleIds[1]}`);
    expect([refunded.status, refunded.shift_id, refunded.reversal_shift_id]).toEqual(['refunded', xShift, xShift]);

    // The owner sees each, with whose shift was named and where the money went.
    const noted = await conflicts(owner);
    expect(noted.map((c) => [c.mutation_id, c.transaction_id, c.detail]).sort()).toEqual(
      [
        [
          mutations[1]!.id,
          saleIds[0],
          { reason: 'another_cashier', named_shift_id: yShift.id, named_shift_cashier_id: y.user.id, booked_shift_id: xShift },
        ],
        [
          mutations[2]!.id,
          null,
          { reason: 'another_cashier', named_shift_id: wShift.id, named_shift_cashier_id: w.user.id, booked_shift_id: xShift },
        ],
        [
          mutations[4]!.id,
          saleIds[1],
          { reason: 'another_cashier', named_shift_id: wShift.id, named_shift_cashier_id: w.user.id, booked_shift_id: xShift },
        ],
        [
          mutations[7]!.id,
          null,
          { reason: 'another_cashier', named_shift_id: yShift.id, named_shift_cashier_id: y.user.id, booked_shift_id: xShift },
        ],
      ].sort(),
    );
    const titles = await t.db.db
      .selectFrom('notifications')
      .select('title')
      .where('org_id', '=', owner.orgId)
      .where('link', '=', '/sync/conflicts')
      .execute();
    expect(titles.map((n) => n.title).sort()).toEqual([
      'Offline credit payment needs a look: shift',
      'Offline expense needs a look: shift',
      'Offline refund needs a look: shift',
      `Offline sale ${booked.receipt_number} needs a look: shift`,
    ]);

    // The same push again (a till that lost the answer): duplicates, nothing moves, nothing new noted.
    const again = await push(x.token, device_id, mutations);
    expect(again.results.map((r) => r.status)).toEqual(mutations.map(() => 'duplicate'));
    expect((await call('GET', owner.token, `/pos/shifts/${yShift.id}`)).report).toEqual(yClosed.report);
    expect(await cash(owner, xShift)).toMatchObject({ expected: 26000 });
    expect(await conflicts(owner)).toHaveLength(4);
  });

  it('books money pushed after its own shift closed to no shift, with a conflict: the counted report never moves', async () => {
    const owner = await registerOwner(t);
    const x = await createStaff(t, owner);
    const soda = await call('POST', owner.token, '/inventory/products', { name: 'Soda', selling_price: 5000, stock: 50 });
    const { device_id } = await call('POST', x.token, '/sync/devices', { device_id: uuid(), name: 'Till 1' });
    const shiftId = uuid();
    const m = queue(t.clock.now() - 3_600_000);
    const sale = (id: string, n: number) =>
      m('sale.create', {
        id,
        client_receipt_number: `MAD-T1-${n}`,
        lines: [{ product_id: soda.id, qty: 1, unit_price: 5000 }],
        payment_method: 'Cash',
        shift_id: shiftId,
      });
    const [inside, late] = [uuid(), uuid()];
    const day = await push(x.token, device_id, [
      m('shift.open', { id: shiftId, opening_float: 1000 }),
      sale(inside, 1),
      m('shift.close', { shift_id: shiftId, counted: { Cash: 6000 } }),
    ]);
    expect(day.results.map((r) => [r.status, r.conflicts])).toEqual([
      ['applied', undefined],
      ['applied', undefined],
      ['applied', undefined],
    ]);
    const closed = await call('GET', owner.token, `/pos/shifts/${shiftId}`);
    expect(closed.report.totals).toMatchObject({ expected: 6000, counted: 6000, over_short: 0 });

    // A sale naming the closed shift (a manager closed it while the till was offline, or a forged payload).
    const after = await push(x.token, device_id, [sale(late, 2)]);
    expect(after.results[0]).toMatchObject({ status: 'applied', conflicts: [{ kind: 'shift' }] });
    expect(after.results[0]!.conflicts![0]!.message).toMatch(
      new RegExp(`^the till named shift ${shiftId}, closed at .+Z: a counted shift's figures never change, so this is booked to no shift$`),
    );
    expect((await call('GET', owner.token, `/pos/shifts/${shiftId}`)).report).toEqual(closed.report);
    expect((await call('GET', owner.token, `/pos/transactions/${late}`)).shift_id).toBeNull();
    expect((await conflicts(owner)).map((c) => [c.transaction_id, c.detail])).toEqual([
      [late, { reason: 'closed', named_shift_id: shiftId, named_shift_cashier_id: x.user.id, booked_shift_id: null }],
    ]);
  });

  it('books the queue of a cashier who signed out into the shift that device opened, with no conflict', async () => {
    const owner = await registerOwner(t);
    const a = await createStaff(t, owner, { first_name: 'Asha' });
    const b = await createStaff(t, owner, { first_name: 'Baraka' });
    const soda = await call('POST', owner.token, '/inventory/products', { name: 'Soda', selling_price: 5000, stock: 50 });
    const { device_id } = await call('POST', a.token, '/sync/devices', { device_id: uuid(), name: 'Till 1' });
    const shiftId = uuid();
    const m = queue(t.clock.now() - 3_600_000);
    await push(a.token, device_id, [m('shift.open', { id: shiftId, opening_float: 0 })]);
    // A signed out before the rest of the queue left; B's session drains it, the sale naming A's shift.
    const id = uuid();
    const res = await push(b.token, device_id, [
      m('sale.create', {
        id,
        client_receipt_number: 'MAD-T1-1',
        lines: [{ product_id: soda.id, qty: 1, unit_price: 5000 }],
        payment_method: 'Cash',
        cashier_id: a.user.id,
        shift_id: shiftId,
      }),
    ]);
    expect(res.results[0]!.conflicts?.map((c) => c.kind)).toEqual(['cashier_mismatch']);
    expect((await call('GET', owner.token, `/pos/transactions/${id}`)).shift_id).toBe(shiftId);
    expect(await cash(owner, shiftId)).toMatchObject({ expected: 5000 });
  });
});

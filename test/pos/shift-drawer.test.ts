/**
 * Which drawer pays a refund or void made over REST (issue 49 item 9): the shift named, else the
 * caller's open shift, else the sale's own shift while it is open, else none; a shift the caller may
 * not pay from is refused. A transaction answers the shifts it was booked to, and an owner lists a
 * shift's sales.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('the drawer that pays a refund or void (/pos/transactions/{id}/refund and /void)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const post = async (token: string, path: string, body: unknown, status = 200) => {
    const res = await t.request('POST', path, { token, body });
    expect(res.status, res.text).toBe(status);
    return status < 300 ? res.body.data : res.body;
  };
  const get = async (token: string, path: string) => {
    const res = await t.request('GET', path, { token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  /** A shift's Cash line: what its drawer should hold and what went out. */
  const cash = async (owner: Session, id: string) => {
    const { report } = (await get(owner.token, `/pos/shifts/${id}`)).data;
    const row = report.methods.find((m: { method: string }) => m.method === 'Cash');
    return { expected: row.expected, sales: row.sales, refunds: row.refunds };
  };

  async function shop() {
    const owner = await registerOwner(t);
    const cashier = await createStaff(t, owner, { first_name: 'Asha', can_refund: true });
    const other = await createStaff(t, owner, { first_name: 'Baraka', can_refund: true });
    const soda = await post(owner.token, '/inventory/products', { name: 'Soda', selling_price: 5000, stock: 100 });
    const sell = (s: { token: string }) =>
      post(s.token, '/pos/sale', { lines: [{ product_id: soda.id, qty: 1 }], payment_method: 'Cash' }, 201);
    return { owner, cashier, other, sell };
  }

  it("pays the owner's back-office refund and void out of the sale's own open shift, so the cashier's expected cash is exact", async () => {
    const { owner, cashier, sell } = await shop();
    const shift = await post(cashier.token, '/pos/shifts', { opening_float: 50000 }, 201);
    const [a, b, c] = [await sell(cashier), await sell(cashier), await sell(cashier)];
    expect([a.shift_id, a.reversal_shift_id]).toEqual([shift.id, null]);
    expect(await cash(owner, shift.id)).toEqual({ expected: 65000, sales: 15000, refunds: 0 });

    // The owner has no shift open: the money goes back out of the drawer that took it.
    const refunded = await post(owner.token, `/pos/transactions/${a.id}/refund`, { reason: 'flat' });
    expect([refunded.status, refunded.shift_id, refunded.reversal_shift_id]).toEqual(['refunded', shift.id, shift.id]);
    const voided = await post(owner.token, `/pos/transactions/${b.id}/void`, { reason: 'rung up twice' });
    expect([voided.status, voided.reversal_shift_id]).toEqual(['void', shift.id]);
    expect(await cash(owner, shift.id)).toEqual({ expected: 55000, sales: 15000, refunds: 10000 });

    // The owner lists the shift's sales.
    const listed = await get(owner.token, `/pos/transactions?shift_id=${shift.id}`);
    expect(listed.meta.total).toBe(3);
    expect(listed.data.map((x: { id: string }) => x.id).sort()).toEqual([a.id, b.id, c.id].sort());
    const none = await get(owner.token, `/pos/transactions?shift_id=${crypto.randomUUID()}`);
    expect(none.meta.total).toBe(0);

    // Counted to the shilling: the close is level.
    const closed = await post(cashier.token, `/pos/shifts/${shift.id}/close`, { counted: { Cash: 55000 } });
    expect(closed.report.totals).toMatchObject({ expected: 55000, counted: 55000, over_short: 0 });

    // Once the shift is closed and no drawer is open, a refund belongs to no shift: the Z report stays as counted.
    const late = await post(owner.token, `/pos/transactions/${c.id}/refund`, { reason: 'expired' });
    expect(late.reversal_shift_id).toBeNull();
    expect((await get(owner.token, `/pos/shifts/${shift.id}`)).data.report).toEqual(closed.report);
  });

  it('pays from the shift named when the caller may, and refuses one they may not with a clear 4xx', async () => {
    const { owner, cashier, other, sell } = await shop();
    const mine = await post(cashier.token, '/pos/shifts', { opening_float: 10000 }, 201);
    const theirs = await post(other.token, '/pos/shifts', { opening_float: 20000 }, 201);
    const [a, b, c] = [await sell(cashier), await sell(cashier), await sell(other)];

    // The owner pays a refund of Asha's sale out of Baraka's drawer (the till the customer came back to).
    const fromOther = await post(owner.token, `/pos/transactions/${a.id}/refund`, { reason: 'flat', shift_id: theirs.id });
    expect(fromOther.reversal_shift_id).toBe(theirs.id);
    expect(await cash(owner, mine.id)).toEqual({ expected: 20000, sales: 10000, refunds: 0 });
    expect(await cash(owner, theirs.id)).toEqual({ expected: 20000, sales: 5000, refunds: 5000 });

    // A cashier pays only from their own drawer; an unknown shift is 404; a closed one 409.
    const another = await post(cashier.token, `/pos/transactions/${b.id}/refund`, { reason: 'flat', shift_id: theirs.id }, 403);
    expect(another.errors[0]).toMatchObject({ code: 'FORBIDDEN', message: "a cashier pays out only from their own shift's drawer" });
    const unknown = await post(owner.token, `/pos/transactions/${b.id}/refund`, { reason: 'flat', shift_id: crypto.randomUUID() }, 404);
    expect(unknown.errors[0].code).toBe('NOT_FOUND');
    const stranger = await registerOwner(t);
    const strangers = await post(stranger.token, '/pos/shifts', { opening_float: 0 }, 201);
    expect((await post(owner.token, `/pos/transactions/${b.id}/void`, { reason: 'x', shift_id: strangers.id }, 404)).errors[0].code).toBe(
      'NOT_FOUND',
    );
    await post(other.token, `/pos/shifts/${theirs.id}/close`, { counted: { Cash: 20000 } });
    const closed = await post(owner.token, `/pos/transactions/${c.id}/refund`, { reason: 'flat', shift_id: theirs.id }, 409);
    expect(closed.errors[0]).toMatchObject({
      code: 'INVALID_STATE',
      message: `shift ${theirs.id} is closed: its drawer was counted; name an open shift, or none`,
    });
    // Nothing refused moved money or changed the sale.
    expect((await get(owner.token, `/pos/transactions/${b.id}`)).data.status).toBe('paid');
    expect(await cash(owner, mine.id)).toEqual({ expected: 20000, sales: 10000, refunds: 0 });

    // With no shift named, the cashier's own open drawer pays, even for the sale of a closed shift.
    const own = await post(cashier.token, `/pos/transactions/${c.id}/refund`, { reason: 'flat' });
    expect([own.shift_id, own.reversal_shift_id]).toEqual([theirs.id, mine.id]);
    expect(await cash(owner, mine.id)).toEqual({ expected: 15000, sales: 10000, refunds: 5000 });
  });
});

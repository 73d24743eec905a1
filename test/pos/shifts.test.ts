/**
 * Shifts and cash-up over REST (issue 37): a cashier's day from the float to the count, with exact
 * expected, counted and over/short per method; one open shift per cashier; who sees and closes
 * which shift; other organisations' shifts; the owner's shortfall threshold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('shifts and cash-up (/pos/shifts)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const post = async (token: string, path: string, body: unknown, status = 200) => {
    const res = await t.request('POST', path, { token, body });
    expect(res.status, res.text).toBe(status);
    return res.body.data;
  };
  const get = (token: string, path: string) => t.request('GET', path, { token });
  const notifications = (owner: Session) =>
    t.db.db
      .selectFrom('notifications')
      .select(['title', 'body', 'link'])
      .where('org_id', '=', owner.orgId)
      .where('store_id', '=', owner.storeId)
      .where('category', '=', 'sales')
      .execute();

  async function shop() {
    const owner = await registerOwner(t);
    const cashier = await createStaff(t, owner, { can_refund: true });
    const soda = await post(owner.token, '/inventory/products', { name: 'Soda', selling_price: 1500, stock: 100 });
    const bread = await post(owner.token, '/inventory/products', { name: 'Mkate', selling_price: 2000, stock: 100 });
    const customer = await post(owner.token, '/customers', { name: 'Halima Said' });
    return { owner, cashier, soda: soda.id as string, bread: bread.id as string, customer: customer.id as string };
  }

  it("books the cashier's sales, refund, payout and credit payment to the open shift, and closes with exact figures per method", async () => {
    const { owner, cashier, soda, bread, customer } = await shop();
    const opened = await post(cashier.token, '/pos/shifts', { opening_float: 50000, till_number: 'T1', note: 'from the safe' }, 201);
    expect(opened).toMatchObject({
      status: 'open',
      opening_float: 50000,
      till_number: 'T1',
      open_note: 'from the safe',
      cashier_id: cashier.user.id,
    });
    expect(opened.report).toMatchObject({ kind: 'X', opening_float: 50000, totals: { expected: 50000, sales: 0 } });

    const sale = (token: string, body: Record<string, unknown>) => post(token, '/pos/sale', body, 201);
    await sale(cashier.token, { lines: [{ product_id: soda, qty: 2 }], payment_method: 'Cash' });
    const refunded = await sale(cashier.token, { lines: [{ product_id: bread, qty: 1 }], payment_method: 'Cash' });
    await sale(cashier.token, { lines: [{ product_id: soda, qty: 3 }], payment_method: 'M-Pesa', payment_reference: 'QK7H2M9X1P' });
    await sale(cashier.token, { lines: [{ product_id: bread, qty: 3 }], payment_method: 'Credit', customer_id: customer });
    // The owner has no shift open: their sale belongs to no shift, least of all the cashier's.
    await sale(owner.token, { lines: [{ product_id: soda, qty: 10 }], payment_method: 'Cash' });
    await post(cashier.token, `/pos/transactions/${refunded.id}/refund`, { reason: 'mouldy' });
    await post(cashier.token, '/expenses', { title: 'Bodaboda', category: 'Transport', amount: 1200, payment_method: 'Cash' });
    await post(cashier.token, `/credits/customers/${customer}/payments`, { amount: 2500, method: 'Cash' });

    const current = await get(cashier.token, '/pos/shifts/current');
    expect(current.status, current.text).toBe(200);
    expect(current.body.data.id).toBe(opened.id);
    expect(current.body.data.report.methods.map((m: { method: string; expected: number | null }) => [m.method, m.expected])).toEqual([
      ['Cash', 54300],
      ['M-Pesa', 4500],
      ['Credit', null],
    ]);

    const closed = await post(cashier.token, `/pos/shifts/${opened.id}/close`, {
      counted: { Cash: 53300, 'M-Pesa': 4500 },
      note: 'one note short',
    });
    expect(closed).toMatchObject({ status: 'closed', close_note: 'one note short', closed_by: cashier.user.id, over_short: -1000 });
    expect(closed.report.kind).toBe('Z');
    expect(closed.report.methods).toEqual([
      {
        method: 'Cash',
        counted_at_close: true,
        opening_float: 50000,
        sales: 5000,
        sales_count: 2,
        refunds: 2000,
        refunds_count: 1,
        credit_payments: 2500,
        payouts: 1200,
        expected: 54300,
        counted: 53300,
        over_short: -1000,
      },
      {
        method: 'M-Pesa',
        counted_at_close: true,
        opening_float: 0,
        sales: 4500,
        sales_count: 1,
        refunds: 0,
        refunds_count: 0,
        credit_payments: 0,
        payouts: 0,
        expected: 4500,
        counted: 4500,
        over_short: 0,
      },
      {
        method: 'Credit',
        counted_at_close: false,
        opening_float: 0,
        sales: 6000,
        sales_count: 1,
        refunds: 0,
        refunds_count: 0,
        credit_payments: 0,
        payouts: 0,
        expected: null,
        counted: null,
        over_short: null,
      },
    ]);
    expect(closed.report).toMatchObject({
      totals: { sales: 15500, refunds: 2000, credit_payments: 2500, payouts: 1200, expected: 58800, counted: 57800, over_short: -1000 },
      sales_count: 4,
      refund_count: 1,
      payout_count: 1,
      credit_payment_count: 1,
      note: 'one note short',
      cashier_name: 'Juma Ali',
      till_number: 'T1',
    });
    // The Z report reads the same afterwards, and closing again is refused.
    const detail = await get(owner.token, `/pos/shifts/${opened.id}`);
    expect(detail.body.data.report).toEqual(closed.report);
    const again = await t.request('POST', `/pos/shifts/${opened.id}/close`, { token: cashier.token, body: { counted: { Cash: 53300 } } });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('INVALID_STATE');
    expect((await get(cashier.token, '/pos/shifts/current')).body.data).toBeNull();

    // The default threshold (0) notifies the store of any shortfall.
    expect(await notifications(owner)).toEqual([
      expect.objectContaining({
        title: "Juma Ali's shift closed short by TZS 1,000",
        body: expect.stringContaining("Juma Ali's shift on till T1 closed TZS 1,000 short"),
        link: `/pos/shifts/${opened.id}`,
      }),
    ]);
  });

  it('refuses a second open shift for the cashier with 409 naming it; the owner may open their own', async () => {
    const { owner, cashier } = await shop();
    const first = await post(cashier.token, '/pos/shifts', { opening_float: 20000 }, 201);
    const second = await t.request('POST', '/pos/shifts', { token: cashier.token, body: { opening_float: 10000 } });
    expect(second.status).toBe(409);
    expect(second.body.errors[0]).toMatchObject({ code: 'CONFLICT', field: 'shift_id' });
    expect(second.body.errors[0].message).toContain(first.id);
    await post(owner.token, '/pos/shifts', { opening_float: 0 }, 201);
    // A client id makes opening safe to retry: the same id answers the same shift.
    const id = crypto.randomUUID();
    const other = await createStaff(t, owner);
    const a = await post(other.token, '/pos/shifts', { id, opening_float: 5000 }, 201);
    const b = await post(other.token, '/pos/shifts', { id, opening_float: 5000 }, 201);
    expect([a.id, b.id]).toEqual([id, id]);
  });

  it("lets the owner see every till's shifts and a cashier only their own; another organisation's shift is 404", async () => {
    const { owner, cashier } = await shop();
    const mine = await post(cashier.token, '/pos/shifts', { opening_float: 1000 }, 201);
    const owners = await post(owner.token, '/pos/shifts', { opening_float: 2000 }, 201);

    const ownerList = await get(owner.token, '/pos/shifts');
    expect(ownerList.status, ownerList.text).toBe(200);
    expect(ownerList.body.data.map((s: { id: string }) => s.id).sort()).toEqual([mine.id, owners.id].sort());
    expect(ownerList.body.meta).toEqual({ page: 1, page_size: 20, total: 2, total_pages: 1 });
    const byCashier = await get(owner.token, `/pos/shifts?cashier_id=${cashier.user.id}&status=open`);
    expect(byCashier.body.data.map((s: { id: string }) => s.id)).toEqual([mine.id]);
    const cashierList = await get(cashier.token, '/pos/shifts');
    expect(cashierList.body.data.map((s: { id: string }) => s.id)).toEqual([mine.id]);
    expect((await get(cashier.token, `/pos/shifts?cashier_id=${owner.userId}`)).status).toBe(403);
    expect((await get(cashier.token, `/pos/shifts/${owners.id}`)).status).toBe(403);
    const closeOthers = await t.request('POST', `/pos/shifts/${owners.id}/close`, {
      token: cashier.token,
      body: { counted: { Cash: 2000 } },
    });
    expect(closeOthers.status).toBe(403);
    // The owner may close the cashier's shift.
    await post(owner.token, `/pos/shifts/${mine.id}/close`, { counted: { Cash: 1000 } });
    expect((await get(owner.token, '/pos/shifts?status=closed')).body.data.map((s: { id: string }) => s.id)).toEqual([mine.id]);

    const stranger = await registerOwner(t);
    expect((await get(stranger.token, `/pos/shifts/${owners.id}`)).status).toBe(404);
    const closeStrangers = await t.request('POST', `/pos/shifts/${owners.id}/close`, {
      token: stranger.token,
      body: { counted: { Cash: 0 } },
    });
    expect(closeStrangers.status).toBe(404);
    expect((await get(stranger.token, '/pos/shifts')).body.data).toEqual([]);
    // Cash must be counted.
    const uncounted = await t.request('POST', `/pos/shifts/${owners.id}/close`, { token: owner.token, body: { counted: { 'M-Pesa': 0 } } });
    expect(uncounted.status).toBe(400);
    expect(uncounted.body.errors[0].field).toBe('counted.Cash');
  });

  it("notifies only beyond the owner's threshold, and books a refund to the shift it is made in", async () => {
    const { owner, cashier, soda } = await shop();
    const set = await t.request('PATCH', '/accounts/organisation', { token: owner.token, body: { shift_shortfall_alert: 5000 } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.shift_shortfall_alert).toBe(5000);
    const refused = await t.request('PATCH', '/accounts/organisation', { token: cashier.token, body: { shift_shortfall_alert: 0 } });
    expect(refused.status).toBe(403);

    const first = await post(cashier.token, '/pos/shifts', { opening_float: 10000 }, 201);
    const sold = await post(cashier.token, '/pos/sale', { lines: [{ product_id: soda, qty: 2 }], payment_method: 'Cash' }, 201);
    // Short by 5,000 exactly: within the threshold, no notification.
    const within = await post(cashier.token, `/pos/shifts/${first.id}/close`, { counted: { Cash: 8000 } });
    expect(within.report.totals).toMatchObject({ expected: 13000, counted: 8000, over_short: -5000 });
    expect(await notifications(owner)).toEqual([]);

    const second = await post(cashier.token, '/pos/shifts', { opening_float: 10000 }, 201);
    await post(cashier.token, `/pos/transactions/${sold.id}/refund`, { reason: 'flat' });
    const beyond = await post(cashier.token, `/pos/shifts/${second.id}/close`, { counted: { Cash: 1000 } });
    expect(beyond.report.methods[0]).toMatchObject({
      method: 'Cash',
      sales: 0,
      refunds: 3000,
      expected: 7000,
      counted: 1000,
      over_short: -6000,
    });
    expect((await get(owner.token, `/pos/shifts/${first.id}`)).body.data.report.methods[0]).toMatchObject({ sales: 3000, refunds: 0 });
    expect((await notifications(owner)).map((n) => n.title)).toEqual(["Juma Ali's shift closed short by TZS 6,000"]);
  });
});

/**
 * Issue 52: an exchange at the counter over real HTTP (docs/pos.md "Exchanges"). A shirt of 20,000
 * paid in cash comes back for one of 25,000: the 20,000 back pays the new sale, the 5,000 difference
 * by M-Pesa; stock moves by exactly one each way, the shift expects the same cash and 5,000 M-Pesa,
 * the summary nets 25,000 sold and 20,000 refunded. A dearer item back gives the difference out in
 * cash, or off the customer's tab; more than is left, or an unpaid difference, writes nothing; the
 * same Idempotency-Key exchanges once; a cashier without the refund permission is refused.
 */
import { Envelope, Exchange, newId, PushResponse, Transaction } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('POST /pos/exchanges: items back, items out, the difference settled, one transaction', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = async (
    token: string,
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
    status = 200,
    headers?: Record<string, string>,
  ) => {
    const res = await t.request(method, path, { token, body, headers });
    // 200 stands for any success (a create answers 201).
    expect(status === 200 && res.status === 201 ? 200 : res.status, res.text).toBe(status);
    return res.body;
  };
  const product = async (owner: Session, body: Record<string, unknown>) =>
    (await call(owner.token, 'POST', '/inventory/products', body)).data;
  const sale = async (owner: Session, body: Record<string, unknown>) =>
    Envelope(Transaction).parse(await call(owner.token, 'POST', '/pos/sale', body, 201)).data;
  const exchange = async (token: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    Envelope(Exchange).parse(await call(token, 'POST', '/pos/exchanges', { reason: 'wrong size', ...body }, 201, headers)).data;
  const stock = async (owner: Session, id: string) => (await call(owner.token, 'GET', `/inventory/products/${id}`)).data.stock;
  const line = async (owner: Session, shiftId: string, method: string) => {
    const { report } = (await call(owner.token, 'GET', `/pos/shifts/${shiftId}`)).data;
    const row = report.methods.find((m: { method: string }) => m.method === method);
    return row && { expected: row.expected, sales: row.sales, refunds: row.refunds };
  };
  const shop = async () => {
    const owner = await registerOwner(t);
    const shift = (await call(owner.token, 'POST', '/pos/shifts', { opening_float: 10000 })).data;
    const medium = await product(owner, { name: 'Shati M', selling_price: 20000, stock: 5 });
    const large = await product(owner, { name: 'Shati L', selling_price: 25000, stock: 5 });
    const socks = await product(owner, { name: 'Soksi', selling_price: 3000, stock: 10 });
    return { owner, shift, medium, large, socks };
  };

  it('20,000 back, 25,000 out, 5,000 by M-Pesa: stock, shift and summary exact', async () => {
    const { owner, shift, medium, large } = await shop();
    const sold = await sale(owner, { lines: [{ product_id: medium.id, qty: 1 }], payment_method: 'Cash' });
    const done = await exchange(owner.token, {
      transaction_id: sold.id,
      back: [{ product_id: medium.id, qty: 1 }],
      out: [{ product_id: large.id, qty: 1 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7H2M9X1P',
    });
    expect(done).toMatchObject({ returned_total: 20000, sale_total: 25000, difference: 5000, to_tab: 0 });
    expect(done.settlement).toEqual([{ method: 'M-Pesa', amount: 5000 }]);
    expect(done.returned).toMatchObject({ id: sold.id, status: 'refunded', refunded_total: 20000 });
    expect(done.sale).toMatchObject({ total: 25000, status: 'paid', payment_method: 'Mixed' });
    expect(done.sale.payments?.map((p) => [p.method, p.amount])).toEqual([
      ['Cash', 20000],
      ['M-Pesa', 5000],
    ]);
    expect([await stock(owner, medium.id), await stock(owner, large.id)]).toEqual([5, 4]);
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 10000 + 20000, sales: 40000, refunds: 20000 });
    expect(await line(owner, shift.id, 'M-Pesa')).toMatchObject({ sales: 5000, refunds: 0 });
    expect((await call(owner.token, 'GET', '/pos/summary')).data).toMatchObject({
      total_sales: 25000,
      cash_total: 20000,
      mpesa_total: 5000,
      refund_total: 20000,
      refund_count: 1,
    });
  });

  it('25,000 back, 20,000 out: 5,000 given back in cash; or off the tab', async () => {
    const { owner, shift, medium, large, socks } = await shop();
    const sold = await sale(owner, { lines: [{ product_id: large.id, qty: 2 }], payment_method: 'Cash' });
    const cash = await exchange(owner.token, {
      transaction_id: sold.id,
      back: [{ product_id: large.id, qty: 1 }],
      out: [{ product_id: medium.id, qty: 1 }],
    });
    expect(cash).toMatchObject({ returned_total: 25000, sale_total: 20000, difference: -5000, to_tab: 0 });
    expect(cash.settlement).toEqual([{ method: 'Cash', amount: -5000 }]);
    expect(cash.returned).toMatchObject({ status: 'paid', refunded_total: 25000 });
    expect(await line(owner, shift.id, 'Cash')).toMatchObject({ expected: 10000 + 50000 - 5000 });
    expect([await stock(owner, medium.id), await stock(owner, large.id)]).toEqual([4, 4]);

    // A customer who owes 9,000 takes the difference off their tab: no cash moves.
    const customer = (await call(owner.token, 'POST', '/customers', { name: 'Halima Said', phone: '0754 321 001' })).data;
    await sale(owner, { lines: [{ product_id: socks.id, qty: 3 }], payment_method: 'Credit', customer_id: customer.id });
    const theirs = await sale(owner, { lines: [{ product_id: large.id, qty: 1 }], payment_method: 'Cash', customer_id: customer.id });
    const before = (await line(owner, shift.id, 'Cash'))!.expected;
    const tab = await exchange(owner.token, {
      transaction_id: theirs.id,
      back: [{ product_id: large.id, qty: 1 }],
      out: [{ product_id: medium.id, qty: 1 }],
      give_back: 'tab',
    });
    expect(tab).toMatchObject({ difference: -5000, to_tab: 5000, settlement: [] });
    expect((await call(owner.token, 'GET', `/customers/${customer.id}`)).data.outstanding_balance).toBe(4000);
    expect((await line(owner, shift.id, 'Cash'))!.expected).toBe(before);
  });

  it("a till's pushed sale.exchange with give_back 'tab': the tab paid once by the server's rule; on a sale with no customer, refused whole", async () => {
    const { owner, shift, medium, large, socks } = await shop();
    const deviceId = newId();
    await call(owner.token, 'POST', '/sync/devices', { device_id: deviceId, name: 'Till 1' });
    const customer = (await call(owner.token, 'POST', '/customers', { name: 'Halima Said', phone: '0754 321 002' })).data;
    await sale(owner, { lines: [{ product_id: socks.id, qty: 3 }], payment_method: 'Credit', customer_id: customer.id });
    const theirs = await sale(owner, { lines: [{ product_id: large.id, qty: 1 }], payment_method: 'Cash', customer_id: customer.id });
    const nobody = await sale(owner, { lines: [{ product_id: large.id, qty: 1 }], payment_method: 'Cash' });
    const before = (await line(owner, shift.id, 'Cash'))!.expected;
    let seq = 0;
    // 25,000 back, 20,000 out paid by the cash that came back; the 5,000 left to the tab.
    const pushed = (transactionId: string, customerId?: string) => ({
      id: newId(),
      seq: ++seq,
      type: 'sale.exchange',
      created_at: new Date(t.clock.now()).toISOString(),
      payload: {
        transaction_id: transactionId,
        reason: 'wrong size',
        back: [{ product_id: large.id, qty: 1 }],
        shift_id: shift.id,
        give_back: 'tab',
        sale: {
          id: newId(),
          client_receipt_number: `T1-${seq}`,
          lines: [{ product_id: medium.id, qty: 1, unit_price: 20000 }],
          payment_method: 'Cash',
          shift_id: shift.id,
          ...(customerId ? { customer_id: customerId } : {}),
        },
      },
    });
    const push = async (mutations: unknown[]) =>
      Envelope(PushResponse).parse(await call(owner.token, 'POST', '/sync/push', { device_id: deviceId, mutations })).data.results;
    const owes = async () => (await call(owner.token, 'GET', `/customers/${customer.id}`)).data.outstanding_balance;
    const refused = await push([pushed(nobody.id)]);
    expect(refused.map((r) => [r.status, r.error])).toEqual([
      ['rejected', { code: 'VALIDATION_ERROR', message: 'give_back the sale has no customer, so there is no tab to pay off' }],
    ]);
    expect([await stock(owner, large.id), await stock(owner, medium.id), await owes()]).toEqual([3, 5, 9000]);

    const m = pushed(theirs.id, customer.id);
    const [applied] = await push([m]);
    expect(applied!.status).toBe('applied');
    expect(await owes()).toBe(4000);
    expect((await line(owner, shift.id, 'Cash'))!.expected).toBe(before);
    expect([await stock(owner, large.id), await stock(owner, medium.id)]).toEqual([4, 4]);
    // Sent again (its answer lost): the recorded answer, nothing paid twice.
    expect((await push([m]))[0]!.status).toBe('duplicate');
    expect(await owes()).toBe(4000);
  });

  it('more than is left, or a difference nobody pays, writes nothing; one Idempotency-Key exchanges once; no refund permission is 403', async () => {
    const { owner, medium, large } = await shop();
    const sold = await sale(owner, { lines: [{ product_id: medium.id, qty: 1 }], payment_method: 'Cash' });
    const body = {
      reason: 'wrong size',
      transaction_id: sold.id,
      back: [{ product_id: medium.id, qty: 1 }],
      out: [{ product_id: large.id, qty: 1 }],
    };
    const over = await call(
      owner.token,
      'POST',
      '/pos/exchanges',
      { ...body, back: [{ product_id: medium.id, qty: 2 }], payment_method: 'Cash' },
      409,
    );
    expect(over.errors[0]).toMatchObject({ field: 'lines.0.qty' });
    const unpaid = await call(owner.token, 'POST', '/pos/exchanges', body, 400);
    expect(JSON.stringify(unpaid)).toContain('payment_method');
    expect([await stock(owner, medium.id), await stock(owner, large.id)]).toEqual([4, 5]);
    expect((await call(owner.token, 'GET', `/pos/transactions/${sold.id}`)).data).toMatchObject({ status: 'paid', refunded_total: 0 });

    const staff = await createStaff(t, owner);
    await call(staff.token, 'POST', '/pos/exchanges', { ...body, payment_method: 'Cash' }, 403);

    const headers = { 'Idempotency-Key': 'exchange-once-1' };
    const first = await exchange(owner.token, { ...body, payment_method: 'Cash' }, headers);
    const again = await exchange(owner.token, { ...body, payment_method: 'Cash' }, headers);
    expect(again.sale.id).toBe(first.sale.id);
    expect([await stock(owner, medium.id), await stock(owner, large.id)]).toEqual([5, 4]);
    const { data: sales } = await call(owner.token, 'GET', '/pos/transactions');
    expect(sales).toHaveLength(2);
  });

  describe('POST /pos/returns: goods back without a receipt', () => {
    const returned = async (token: string, body: Record<string, unknown>, status = 200) =>
      (await call(token, 'POST', '/pos/returns', { reason: 'no receipt', date_from: '2026-01-01', date_to: '2030-12-31', ...body }, status))
        .data;

    it('found: refunded from the latest sale with that much left, at the price paid; none: the current price, paid out and noted', async () => {
      const { owner, shift, medium, large } = await shop();
      // Sold at 20,000, then the price rises to 22,000 and another sells at the new price.
      const first = await sale(owner, { lines: [{ product_id: medium.id, qty: 1 }], payment_method: 'Cash' });
      await call(owner.token, 'PATCH', `/inventory/products/${medium.id}`, { selling_price: 22000 });
      const second = await sale(owner, { lines: [{ product_id: medium.id, qty: 1 }], payment_method: 'Cash' });
      const one = await returned(owner.token, { lines: [{ product_id: medium.id, qty: 1 }] });
      expect(one).toMatchObject({ total: 22000, expense_id: null });
      expect(one.lines).toEqual([
        { product_id: medium.id, qty: 1, amount: 22000, basis: 'sale', transaction_id: second.id, receipt_number: second.receipt_number },
      ]);
      // The latest is all back now: the next comes from the first, at the 20,000 paid.
      const two = await returned(owner.token, { lines: [{ product_id: medium.id, qty: 1 }] });
      expect(two.lines[0]).toMatchObject({ amount: 20000, basis: 'sale', transaction_id: first.id });
      expect(await stock(owner, medium.id)).toBe(5);
      // Never sold here: at the current price, the stock back, the money out of the drawer as a noted expense.
      const none = await returned(owner.token, { lines: [{ product_id: large.id, qty: 2 }] });
      expect(none).toMatchObject({ total: 50000, lines: [{ qty: 2, amount: 50000, basis: 'current_price', transaction_id: null }] });
      expect(await stock(owner, large.id)).toBe(7);
      const expense = (await call(owner.token, 'GET', `/expenses/${none.expense_id}`)).data;
      expect(expense).toMatchObject({ amount: 50000, payment_method: 'Cash', title: 'Return without a receipt: 2 × Shati L' });
      expect((await call(owner.token, 'GET', '/pos/summary')).data).toMatchObject({ total_sales: 0, refund_total: 42000, refund_count: 2 });
      expect((await line(owner, shift.id, 'Cash'))!.expected).toBe(10000 + 42000 - 42000 - 50000);
    });

    it('a range before the sale finds none; no refund permission is 403; a bad range 400', async () => {
      const { owner, medium } = await shop();
      await sale(owner, { lines: [{ product_id: medium.id, qty: 1 }], payment_method: 'Cash' });
      const old = await returned(owner.token, {
        lines: [{ product_id: medium.id, qty: 1 }],
        date_from: '2025-01-01',
        date_to: '2025-01-31',
      });
      expect(old.lines[0]).toMatchObject({ basis: 'current_price', amount: 20000 });
      const staff = await createStaff(t, owner);
      await returned(staff.token, { lines: [{ product_id: medium.id, qty: 1 }] }, 403);
      await returned(owner.token, { lines: [{ product_id: medium.id, qty: 1 }], date_from: '2026-12-31', date_to: '2026-01-01' }, 400);
    });
  });
});

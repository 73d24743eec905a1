/**
 * Split tender (issue 51) over real HTTP: a sale of 12,500 paid 5,000 cash + 7,500 M-Pesa answers
 * both parts and `Mixed`; the shift's drawer expects the cash part only and the wallet the M-Pesa
 * part; cash 6,000 + 7,500 gives 1,000 change; parts short of the total are refused naming
 * `payments`, with nothing written; mobile money + credit puts only the credit part on the tab; a
 * refund gives each part back by its method; /pos/summary counts each part under its method; a sale
 * paid one way answers as before, with its one part.
 */
import { CreditProfile, Envelope, PushResponse, Transaction, newId } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('split tender: one sale paid several ways', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const call = async (method: 'GET' | 'POST', token: string, path: string, body?: unknown, status = 200) => {
    const res = await t.request(method, path, { token, body });
    expect(res.status, res.text).toBe(status);
    return res.body;
  };
  async function shop() {
    const owner = await registerOwner(t);
    // 12,500 a crate, so one crate is the sale.
    const crate = (await call('POST', owner.token, '/inventory/products', { name: 'Soda crate', selling_price: 12500, stock: 50 })).data;
    const sell = (body: Record<string, unknown>, status = 201) =>
      call('POST', owner.token, '/pos/sale', { lines: [{ product_id: crate.id, qty: 1 }], ...body }, status);
    const stock = async () => (await call('GET', owner.token, `/inventory/products/${crate.id}`)).data.stock as number;
    const sales = async () => (await call('GET', owner.token, '/pos/transactions')).meta.total as number;
    return { owner, crate, sell, stock, sales };
  }
  /** The shift's line for a method: expected (null for Credit), sales and refunds in. */
  const line = async (owner: Session, shiftId: string, method: string) => {
    const { report } = (await call('GET', owner.token, `/pos/shifts/${shiftId}`)).data;
    const row = report.methods.find((m: { method: string }) => m.method === method);
    return row && { expected: row.expected, sales: row.sales, refunds: row.refunds };
  };

  it('answers both parts and Mixed; the drawer expects the cash part only, the wallet its part; a refund gives each back', async () => {
    const { owner, sell } = await shop();
    const shift = (await call('POST', owner.token, '/pos/shifts', { opening_float: 20000 }, 201)).data;
    const body = await sell({
      payments: [
        { method: 'Cash', amount: 5000 },
        { method: 'M-Pesa', amount: 7500, reference: 'QK7H2M9X1P', phone: '0754 000 111' },
      ],
    });
    const sale = Envelope(Transaction).parse(body).data;
    expect(sale).toMatchObject({
      total: 12500,
      status: 'paid',
      payment_method: 'Mixed',
      payment_reference: 'QK7H2M9X1P',
      payment_phone: '+255754000111',
      cash_tendered: 5000,
      change_given: 0,
      shift_id: shift.id,
    });
    expect(sale.payments).toEqual([
      { method: 'Cash', amount: 5000, reference: null, phone: null, verification: null },
      { method: 'M-Pesa', amount: 7500, reference: 'QK7H2M9X1P', phone: '+255754000111', verification: null },
    ]);
    expect((await call('GET', owner.token, `/pos/transactions/${sale.id}`)).data).toEqual(sale);
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 25000, sales: 5000, refunds: 0 });
    expect(await line(owner, shift.id, 'M-Pesa')).toEqual({ expected: 7500, sales: 7500, refunds: 0 });
    expect((await call('GET', owner.token, `/pos/shifts/${shift.id}`)).data.report.sales_count).toBe(1);
    // Listed under each of its methods.
    for (const method of ['Cash', 'M-Pesa'])
      expect(
        (await call('GET', owner.token, `/pos/transactions?method=${encodeURIComponent(method)}`)).data.map((x: Transaction) => x.id),
      ).toEqual([sale.id]);
    const summary = (await call('GET', owner.token, '/pos/summary')).data;
    expect(summary).toMatchObject({ total_sales: 12500, transaction_count: 1, cash_total: 5000, mpesa_total: 7500, credit_total: 0 });

    // The emailed receipt says how it was paid, part by part.
    await call('POST', owner.token, `/pos/transactions/${sale.id}/receipt`, { email: 'asha@example.co.tz' });
    const mail = await t.db.db.selectFrom('outbox').select('body').where('recipient', '=', 'asha@example.co.tz').executeTakeFirstOrThrow();
    expect(mail.body).toContain('Paid by: Cash TZS 5,000 + M-Pesa TZS 7,500\n');

    const refunded = (await call('POST', owner.token, `/pos/transactions/${sale.id}/refund`, { reason: 'flat' })).data;
    expect([refunded.status, refunded.reversal_shift_id]).toEqual(['refunded', shift.id]);
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 20000, sales: 5000, refunds: 5000 });
    expect(await line(owner, shift.id, 'M-Pesa')).toEqual({ expected: 0, sales: 7500, refunds: 7500 });
  });

  it('gives change from the cash part: 6,000 cash + 7,500 M-Pesa on 12,500 is 1,000 back, the drawer keeping 5,000', async () => {
    const { owner, sell } = await shop();
    const shift = (await call('POST', owner.token, '/pos/shifts', { opening_float: 0 }, 201)).data;
    const sale = (
      await sell({
        payments: [
          { method: 'M-Pesa', amount: 7500, reference: 'CHANGE1' },
          { method: 'Cash', amount: 6000 },
        ],
      })
    ).data;
    expect(sale).toMatchObject({ payment_method: 'Mixed', cash_tendered: 6000, change_given: 1000 });
    expect(sale.payments.map((p: { method: string; amount: number }) => [p.method, p.amount])).toEqual([
      ['M-Pesa', 7500],
      ['Cash', 5000],
    ]);
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 5000, sales: 5000, refunds: 0 });
  });

  it('refuses parts that do not pay the total, naming payments, and writes nothing', async () => {
    const { sell, stock, sales } = await shop();
    const [before, count] = [await stock(), await sales()];
    const refused = async (body: Record<string, unknown>, field: string, message: string) => {
      const res = await sell(body, 400);
      expect(res).toMatchObject({ message: `${field} ${message}`, errors: [expect.objectContaining({ field })] });
    };
    await refused(
      {
        payments: [
          { method: 'Cash', amount: 4999 },
          { method: 'M-Pesa', amount: 7500 },
        ],
      },
      'payments',
      "the parts add up to TZS 12,499, less than the sale's total of TZS 12,500",
    );
    await refused(
      {
        payments: [
          { method: 'Bank', amount: 5000 },
          { method: 'M-Pesa', amount: 7500.01 },
        ],
      },
      'payments',
      "the parts other than cash come to TZS 12,500.01, more than the sale's total of TZS 12,500 (only cash may exceed it)",
    );
    await refused(
      {
        payments: [
          { method: 'Cash', amount: 5000 },
          { method: 'Bank', amount: 12500 },
        ],
      },
      'payments',
      'the parts other than cash already pay the total of TZS 12,500: leave out the cash part',
    );
    await refused(
      { payment_method: 'Cash', payments: [{ method: 'M-Pesa', amount: 12500 }] },
      'payment_method',
      'disagrees with payments (M-Pesa): give one or the other',
    );
    await refused({}, 'payment_method', 'give payment_method or payments');
    for (const payments of [
      [],
      [{ method: 'Cash', amount: 0 }],
      [{ method: 'Cash', amount: -5 }],
      [
        { method: 'Cash', amount: 5000 },
        { method: 'Cash', amount: 7500 },
      ],
      [
        { method: 'M-Pesa', amount: 5000 },
        { method: 'Airtel Money', amount: 7500 },
      ],
      [{ method: 'Mixed', amount: 12500 }],
      [1, 2, 3, 4, 5].map((i) => ({ method: ['Cash', 'M-Pesa', 'Bank', 'Credit', 'Tigo Pesa'][i - 1], amount: 2500 })),
    ]) {
      const res = await sell({ payments }, 400);
      expect(res.errors[0].field, JSON.stringify(payments)).toMatch(/^payments/);
    }
    expect(await sell({ payment_method: 'Mixed' }, 400)).toMatchObject({ errors: [expect.objectContaining({ field: 'payment_method' })] });
    expect([await stock(), await sales()]).toEqual([before, count]);
  });

  it('mobile money + credit: the tab grows by the credit part only, and the customer needs to be named', async () => {
    const { owner, sell } = await shop();
    const customer = (await call('POST', owner.token, '/customers', { name: 'Halima Omari', phone: uniquePhone() })).data;
    const noCustomer = await sell(
      {
        payments: [
          { method: 'M-Pesa', amount: 7500, reference: 'TAB-1' },
          { method: 'Credit', amount: 5000 },
        ],
      },
      422,
    );
    expect(noCustomer.errors[0]).toMatchObject({ field: 'customer_id', message: 'a credit sale needs a customer' });
    const sale = (
      await sell({
        customer_id: customer.id,
        payments: [
          { method: 'M-Pesa', amount: 7500, reference: 'TAB-1' },
          { method: 'Credit', amount: 5000 },
        ],
      })
    ).data;
    expect(sale).toMatchObject({ status: 'credit', payment_method: 'Mixed', total: 12500, cash_tendered: null, change_given: null });
    const profile = Envelope(CreditProfile).parse(await call('GET', owner.token, `/credits/customers/${customer.id}`)).data;
    expect(profile.total_outstanding).toBe(5000);
    expect(profile.tabs.map((x) => [x.transaction_id, x.amount, x.balance])).toEqual([[sale.id, 5000, 5000]]);
    // Refunded: the tab's balance is written off, the wallet part goes back by M-Pesa.
    await call('POST', owner.token, `/pos/transactions/${sale.id}/refund`, { reason: 'returned' });
    expect(Envelope(CreditProfile).parse(await call('GET', owner.token, `/credits/customers/${customer.id}`)).data.total_outstanding).toBe(
      0,
    );
  });

  it('answers a sale paid one way exactly as before, with its one part', async () => {
    const { owner, sell } = await shop();
    const sale = (await sell({ payment_method: 'Cash', cash_tendered: 20000 })).data;
    expect(sale).toMatchObject({ payment_method: 'Cash', total: 12500, cash_tendered: 20000, change_given: 7500, payment_reference: null });
    expect(sale.payments).toEqual([{ method: 'Cash', amount: 12500, reference: null, phone: null, verification: null }]);
    const same = (await sell({ payments: [{ method: 'Cash', amount: 20000 }] })).data;
    expect(same).toMatchObject({ payment_method: 'Cash', total: 12500, cash_tendered: 20000, change_given: 7500 });
    expect(same.payments).toEqual(sale.payments);
    const summary = (await call('GET', owner.token, '/pos/summary')).data;
    expect(summary).toMatchObject({ total_sales: 25000, cash_total: 25000, mpesa_total: 0 });
  });

  it("books a till's pushed split sale part by part; an old till's one method is unchanged", async () => {
    const { owner, crate } = await shop();
    const deviceId = newId();
    await call('POST', owner.token, '/sync/devices', { device_id: deviceId, name: 'Till 1' });
    const shift = (await call('POST', owner.token, '/pos/shifts', { opening_float: 0 }, 201)).data;
    const mutation = (seq: number, extra: Record<string, unknown>) => ({
      id: newId(),
      seq,
      type: 'sale.create',
      created_at: new Date(t.clock.now()).toISOString(),
      payload: {
        id: newId(),
        client_receipt_number: `T1-${seq}`,
        lines: [{ product_id: crate.id, qty: 1, unit_price: 12500 }],
        shift_id: shift.id,
        ...extra,
      },
    });
    const mutations = [
      mutation(1, {
        payments: [
          { method: 'Cash', amount: 6000 },
          { method: 'M-Pesa', amount: 7500, reference: 'PUSHED-1' },
        ],
      }),
      mutation(2, { payment_method: 'Cash', cash_tendered: 13000 }),
      mutation(3, { payments: [{ method: 'Cash', amount: 4000 }] }),
    ];
    const res = await call('POST', owner.token, '/sync/push', { device_id: deviceId, mutations });
    const results = Envelope(PushResponse).parse(res).data.results;
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'rejected']);
    expect(results[2]!.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: "payload.payments the parts add up to TZS 4,000, less than the sale's total of TZS 12,500",
    });
    const split = (await call('GET', owner.token, `/pos/transactions/${results[0]!.result!.transaction_id}`)).data;
    expect(split).toMatchObject({ payment_method: 'Mixed', cash_tendered: 6000, change_given: 1000 });
    expect(split.payments.map((p: { method: string; amount: number }) => [p.method, p.amount])).toEqual([
      ['Cash', 5000],
      ['M-Pesa', 7500],
    ]);
    const single = (await call('GET', owner.token, `/pos/transactions/${results[1]!.result!.transaction_id}`)).data;
    expect(single).toMatchObject({ payment_method: 'Cash', cash_tendered: 13000, change_given: 500 });
    expect(single.payments).toEqual([{ method: 'Cash', amount: 12500, reference: null, phone: null, verification: null }]);
    expect(await line(owner, shift.id, 'Cash')).toEqual({ expected: 17500, sales: 17500, refunds: 0 });
    expect(await line(owner, shift.id, 'M-Pesa')).toEqual({ expected: 7500, sales: 7500, refunds: 0 });
  });
});

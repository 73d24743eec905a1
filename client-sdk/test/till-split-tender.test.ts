/**
 * Split tender at the till (issue 51), against the real server over HTTP: a sale of 12,500 paid
 * 5,000 cash + 7,500 M-Pesa (the SMS reference typed) rung up offline, judged by the shared
 * `splitTender` before anything is queued; the till's X report counts each part by its method as
 * the server's does after the push, and the store's M-Pesa reconciliation expects the part only.
 */
import { Envelope, PaymentReconciliation } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { SelcomFake } from '../../test/fakes/selcom-fake.js';
import { seedShop, serverView, signIn, tillServer } from './harness.js';

const SELCOM = { apiKey: 'selcom-key-0123-8842', apiSecret: 'selcom-SECRET-5e1d', vendor: 'TILL61000042' };
const SPLIT = [
  { method: 'Cash', amount: 5000 },
  { method: 'M-Pesa', amount: 7500, reference: 'QK7SPLIT75', phone: '0754000111' },
] as const;

describe('till: a sale paid two ways', () => {
  const server = tillServer();
  const till = server.till;

  it('sells 12,500 as 5,000 cash + 7,500 M-Pesa offline; till and server count each part in the shift; M-Pesa reconciles 7,500', async () => {
    const h = server.h;
    const shop = await seedShop(h);
    const account = await h.t.request('POST', '/payments/collection-accounts', {
      token: shop.owner.token,
      body: { provider: 'selcom', label: 'Selcom', credentials: SELCOM },
    });
    expect(account.status, account.text).toBe(201);
    const t = await till();
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    const shift = await t.openShift({ opening_float: 20000 });
    const unga = [{ product_id: shop.unga.id, qty: 5 }];

    // 5 × Unga 2,500 = 12,500: a split short by one shilling is refused before anything is queued.
    const short = t.sell({ lines: unga, payments: [SPLIT[0], { ...SPLIT[1], amount: 7499 }] });
    await expect(short).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'payments',
      message: "payments the parts add up to TZS 12,499, less than the sale's total of TZS 12,500",
    });
    expect(t.status().pending).toBe(1);
    expect(await t.stock(shop.unga.id)).toBe(30);

    const receipt = await t.sell({ lines: unga, payments: [...SPLIT] });
    expect(receipt).toMatchObject({
      total: 12500,
      status: 'paid',
      payment_method: 'Mixed',
      payment_reference: 'QK7SPLIT75',
      payment_phone: '+255754000111',
      cash_tendered: 5000,
      change_given: 0,
      payments: [
        { method: 'Cash', amount: 5000, reference: null, phone: null, verification: null },
        { method: 'M-Pesa', amount: 7500, reference: 'QK7SPLIT75', phone: '+255754000111', verification: null },
      ],
    });
    const figures = (methods: Array<{ method: string; sales: number; sales_count: number; expected: number | null }>) =>
      methods.map((m) => [m.method, m.sales, m.sales_count, m.expected]);
    const x = (await t.shiftReport())!;
    expect(figures(x.methods)).toEqual([
      ['Cash', 5000, 1, 25000],
      ['M-Pesa', 7500, 0, 7500],
    ]);
    expect(x.totals).toMatchObject({ sales: 12500, expected: 32500 });

    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const view = await serverView(h, shop);
    const booked = (await h.t.request('GET', `/pos/transactions/${receipt.id}`, { token: view.token })).body.data;
    expect(booked).toMatchObject({
      total: 12500,
      payment_method: 'Mixed',
      cash_tendered: 5000,
      change_given: 0,
      shift_id: shift.id,
      payment_verification: 'unverified',
      payments: [
        { method: 'Cash', amount: 5000, verification: null },
        { method: 'M-Pesa', amount: 7500, reference: 'QK7SPLIT75', phone: '+255754000111', verification: 'unverified' },
      ],
    });
    const onServer = (await h.t.request('GET', `/pos/shifts/${shift.id}`, { token: view.token })).body.data;
    expect(figures(onServer.report.methods)).toEqual(figures(x.methods));
    expect(onServer.report.totals).toEqual(x.totals);
    expect(await t.transaction(receipt.id)).toMatchObject({ payment_method: 'Mixed', sync_state: 'synced', payments: booked.payments });

    // The customer's 7,500 reaches the store's account: it matches the part, and the day reconciles 7,500.
    const callback = (account.body.data.callback_url as string).replace(/^https?:\/\/[^/]+/, new URL(h.base).origin);
    expect(await new SelcomFake(SELCOM).customerPaid(callback, { transid: 'QK7SPLIT75', amount: '7500', phone: '255754000111' })).toBe(200);
    const day = new Date(h.t.clock.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const rec = await h.t.request('GET', `/payments/reconciliation?date=${day}`, { token: view.token });
    expect(rec.status, rec.text).toBe(200);
    const mpesa = Envelope(PaymentReconciliation)
      .parse(rec.body)
      .data.wallets.find((w) => w.wallet === 'M-Pesa')!;
    expect(mpesa).toMatchObject({ expected: { amount: 7500, count: 1 }, verified: { amount: 7500, count: 1 }, difference: 0 });
  });

  it('gives change from the cash part, puts only the credit part on the tab, and refuses a credit part without a customer', async () => {
    const h = server.h;
    const shop = await seedShop(h);
    const t = await till();
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    const rice = [{ product_id: shop.rice.id, qty: 2 }];
    // 2 × Rice 3,200 = 6,400: 5,000 M-Pesa leaves 1,400; 2,000 cash gives 600 change.
    const change = await t.sell({
      lines: rice,
      payments: [
        { method: 'Cash', amount: 2000 },
        { method: 'M-Pesa', amount: 5000, reference: 'QK7CHANGE6' },
      ],
    });
    expect(change).toMatchObject({ payment_method: 'Mixed', cash_tendered: 2000, change_given: 600 });
    expect(change.payments!.map((p) => [p.method, p.amount])).toEqual([
      ['Cash', 1400],
      ['M-Pesa', 5000],
    ]);
    await expect(
      t.sell({
        lines: rice,
        payments: [
          { method: 'Cash', amount: 2000 },
          { method: 'Credit', amount: 4400 },
        ],
      }),
    ).rejects.toMatchObject({ code: 'BUSINESS_RULE', field: 'customer_id', message: 'a credit sale needs a customer' });
    const customer = await t.createCustomer({ name: 'Halima Said' });
    const tab = await t.sell({
      lines: rice,
      customer_id: customer.id,
      payments: [
        { method: 'Cash', amount: 2000 },
        { method: 'Credit', amount: 4400 },
      ],
    });
    expect(tab).toMatchObject({ status: 'credit', payment_method: 'Mixed', change_given: 0 });
    expect((await t.customer(customer.id))!.outstanding_balance).toBe(4400);
    await expect(
      t.sell({ lines: rice, payment_method: 'Cash', payments: [{ method: 'M-Pesa', amount: 6400, reference: 'X' }] }),
    ).rejects.toMatchObject({ field: 'payment_method' });

    // Asking the customer's phone is for a whole sale: a part is paid by the SMS path above.
    const ask = { lines: rice, phone: '0754000111', payment_method: 'M-Pesa', payments: [{ method: 'M-Pesa', amount: 6400 }] };
    await expect(t.askMobilePayment(ask as unknown as Parameters<typeof t.askMobilePayment>[0])).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'payments',
    });

    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const { items } = await (await serverView(h, shop)).transactions();
    const byId = new Map(items.map((s) => [s.id, s]));
    expect(byId.get(change.id)).toMatchObject({
      total: 6400,
      cash_tendered: 2000,
      change_given: 600,
      payments: [{ amount: 1400 }, { amount: 5000 }],
    });
    expect(byId.get(tab.id)).toMatchObject({
      status: 'credit',
      payments: [
        { method: 'Cash', amount: 2000 },
        { method: 'Credit', amount: 4400 },
      ],
    });
    const owes = await h.t.request('GET', `/customers/${customer.id}`, { token: shop.owner.token });
    expect(owes.body.data.outstanding_balance).toBe(4400);
  });

  it('a refund gives back each part by its method, on the till and on the server', async () => {
    const h = server.h;
    const shop = await seedShop(h);
    const t = await till();
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    const shift = await t.openShift({ opening_float: 20000 });
    const sale = await t.sell({ lines: [{ product_id: shop.unga.id, qty: 5 }], payments: [...SPLIT] });
    await t.refund(sale.id, 'wrong flour');
    const x = (await t.shiftReport())!;
    expect(x.methods.map((m) => [m.method, m.sales, m.refunds, m.refunds_count, m.expected])).toEqual([
      ['Cash', 5000, 5000, 1, 20000],
      ['M-Pesa', 7500, 7500, 0, 0],
    ]);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const onServer = (await h.t.request('GET', `/pos/shifts/${shift.id}`, { token: shop.owner.token })).body.data;
    expect(onServer.report.methods).toEqual(x.methods);
    expect(onServer.report.totals).toEqual(x.totals);
  });
});

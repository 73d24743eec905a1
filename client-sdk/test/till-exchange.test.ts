/**
 * Issue 52: "an exchange offline with a difference paid by M-Pesa lands exact". Offline, 2 of 4 Unga
 * (5,000, paid cash) come back for 3 Rice (9,600): the till records at once the refund (Unga +2), the
 * sale (Rice −3) paid 5,000 by the cash that came back and 4,600 by M-Pesa, and its X report; queued
 * as ONE `sale.exchange`. Back online the server's stock, shift, summary and sales agree exactly; the
 * push's answer lost and the push sent again changes nothing.
 */
import { PROTOCOL_HEADER } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import { seedShop, serverView, signIn, tillServer } from './harness.js';

type Methods = Array<{ method: string; sales: number; refunds: number; expected: number | null }>;
const figures = (methods: Methods) => methods.map((m) => [m.method, m.sales, m.refunds, m.expected]);

describe('till: an exchange offline', () => {
  const server = tillServer();

  it('2 Unga back, 3 Rice out, 4,600 by M-Pesa: till and server exact; a replayed push changes nothing', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const t = await server.till({ pushBatchSize: 1 });
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    const shift = await t.openShift({ opening_float: 20000 });
    const sale = await t.sell({ lines: [{ product_id: shop.unga.id, qty: 4 }], payment_method: 'Cash' });
    const done = await t.exchange(sale.id, 'wrong flour', {
      back: [{ product_id: shop.unga.id, qty: 2 }],
      out: [{ product_id: shop.rice.id, qty: 3 }],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7EXCH46',
    });
    expect(done.difference).toBe(4600);
    expect(done.returned).toMatchObject({ id: sale.id, status: 'paid', refunded_total: 5000 });
    expect(done.sale.total).toBe(9600);
    expect(done.sale.payments?.map((p) => [p.method, p.amount])).toEqual([
      ['Cash', 5000],
      ['M-Pesa', 4600],
    ]);
    expect([await t.stock(shop.unga.id), await t.stock(shop.rice.id)]).toEqual([28, 22]);
    // One mutation queued for the exchange (after the shift's and the sale's).
    expect(t.status().pending).toBe(3);
    const x = (await t.shiftReport())!;
    expect(figures(x.methods)).toEqual([
      ['Cash', 15000, 5000, 30000],
      ['M-Pesa', 4600, 0, 4600],
    ]);

    // The server commits the push, but its answer is lost: the till sends it again.
    h.net.offline = false;
    h.net.loseReplyTo = '/sync/push';
    await expect(t.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const view = await serverView(h, shop);
    const serverFigures = async () => {
      const report = (await h.t.request('GET', `/pos/shifts/${shift.id}`, { token: view.token })).body.data.report;
      const summary = (await h.t.request('GET', '/pos/summary', { token: view.token })).body.data;
      const { total, items } = await view.transactions();
      return {
        methods: figures(report.methods),
        summary: [summary.total_sales, summary.cash_total, summary.mpesa_total, summary.refund_total, summary.refund_count],
        stock: [await view.stock(shop.unga.id), await view.stock(shop.rice.id)],
        sales: [total, items.map((s) => [s.total, s.refunded_total, s.status])],
      };
    };
    const landed = await serverFigures();
    expect(landed).toEqual({
      methods: figures(x.methods),
      summary: [9600 + 10000 - 5000, 10000, 4600, 5000, 1],
      stock: [28, 22],
      sales: [
        2,
        [
          [9600, 0, 'paid'],
          [10000, 5000, 'paid'],
        ],
      ],
    });
    expect((await t.transaction(done.sale.id))!.receipt_number).toBeTruthy();

    await t.syncNow();
    expect(await serverFigures()).toEqual(landed);
  });

  it('dearer items back, the 5,000 difference to the tab: the balance exact on till and server, the drawer unchanged; a replay changes nothing', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    const t = await server.till({ pushBatchSize: 1 });
    await signIn(t, shop);
    await t.syncNow();
    h.net.offline = true;
    const shift = await t.openShift({ opening_float: 20000 });
    const customer = await t.createCustomer({ name: 'Halima Said' });
    await t.sell({ lines: [{ product_id: shop.rice.id, qty: 4 }], customer_id: customer.id, payment_method: 'Credit' });
    const sale = await t.sell({ lines: [{ product_id: shop.unga.id, qty: 4 }], customer_id: customer.id, payment_method: 'Cash' });
    expect((await t.customer(customer.id))!.outstanding_balance).toBe(12800);
    const drawer = async () => (await t.shiftReport())!.methods.find((m) => m.method === 'Cash')!.expected;
    const before = await drawer();
    // 4 Unga back (10,000) for 5 Soda (5,000): the 5,000 left pays off the tab.
    const done = await t.exchange(sale.id, 'wanted soda', {
      back: [{ product_id: shop.unga.id, qty: 4 }],
      out: [{ product_id: shop.soda.id, qty: 5 }],
      give_back: 'tab',
    });
    expect(done.difference).toBe(-5000);
    expect((await t.customer(customer.id))!.outstanding_balance).toBe(7800);
    expect([await drawer(), before]).toEqual([20000 + 10000, 20000 + 10000]);
    const x = (await t.shiftReport())!;
    expect(figures(x.methods)).toEqual([
      ['Cash', 15000, 10000, 30000],
      ['Credit', 12800, 0, null],
    ]);

    h.net.offline = false;
    h.net.loseReplyTo = '/sync/push';
    await expect(t.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const view = await serverView(h, shop);
    const serverFigures = async () => {
      const report = (await h.t.request('GET', `/pos/shifts/${shift.id}`, { token: view.token })).body.data.report;
      const owes = (await h.t.request('GET', `/customers/${customer.id}`, { token: view.token })).body.data.outstanding_balance;
      return { methods: figures(report.methods), owes, stock: [await view.stock(shop.unga.id), await view.stock(shop.soda.id)] };
    };
    const landed = await serverFigures();
    expect(landed).toEqual({ methods: figures(x.methods), owes: 7800, stock: [30, 35] });
    expect((await t.customer(customer.id))!.outstanding_balance).toBe(7800);
    await t.syncNow();
    expect(await serverFigures()).toEqual(landed);
  });

  it('a till whose server speaks protocol 3 refuses the exchange (UPDATE_SERVER) and changes nothing', async () => {
    const { h } = server;
    const shop = await seedShop(h);
    // The server's answers say version 3: a server from before exchanges.
    const fetch = async (input: string, init?: RequestInit) => {
      const res = await h.net.fetch(input, init);
      const headers = new Headers(res.headers);
      if (headers.has(PROTOCOL_HEADER)) headers.set(PROTOCOL_HEADER, '3');
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    };
    const t = await server.till({ fetch });
    await signIn(t, shop);
    await t.syncNow();
    const sale = await t.sell({ lines: [{ product_id: shop.unga.id, qty: 2 }], payment_method: 'Cash' });
    const asked = t.exchange(sale.id, 'wrong flour', {
      back: [{ product_id: shop.unga.id, qty: 1 }],
      out: [{ product_id: shop.rice.id, qty: 1 }],
      payment_method: 'Cash',
    });
    await expect(asked).rejects.toMatchObject({ code: 'UPDATE_SERVER' });
    expect([await t.stock(shop.unga.id), await t.stock(shop.rice.id), t.status().pending]).toEqual([28, 25, 1]);
  });
});

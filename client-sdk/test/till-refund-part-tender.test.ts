/**
 * Issue 51: a part of a sale refunded on the till gives its money back by the shared `refundTender`,
 * part by part: a split sale's cash first, then M-Pesa, so the till's X report equals the server's
 * after the push; a credit sale's unpaid tab first (the customer owes less). Refunds of part of a
 * sale need a server that speaks sync protocol 2: refused offline while it speaks 1, held if queued.
 */
import { PROTOCOL_HEADER } from '@duka/shared';
import { describe, expect, it } from 'vitest';
import type { HeldForServer } from '@duka/client-sdk';
import { type Harness, seedShop, signIn, tillServer } from './harness.js';

const SPLIT = [
  { method: 'Cash', amount: 5000 },
  { method: 'M-Pesa', amount: 7500, reference: 'QK7PART75', phone: '0754000111' },
] as const;

type Methods = Array<{ method: string; sales: number; refunds: number; refunds_count: number; expected: number | null }>;
const figures = (methods: Methods) => methods.map((m) => [m.method, m.sales, m.refunds, m.refunds_count, m.expected]);

describe('till: the money of a part refunded', () => {
  const server = tillServer();

  async function shopAndTill(h: Harness, fetch?: (input: string, init?: RequestInit) => Promise<Response>) {
    const shop = await seedShop(h);
    // One mutation a push: the sale's answer tells the till its server's version before the refund goes.
    const t = await server.till(fetch ? { fetch, pushBatchSize: 1 } : {});
    await signIn(t, shop);
    await t.syncNow();
    return { shop, t };
  }

  it('a split sale partly refunded twice: cash first, then M-Pesa; the X report equals the server’s after each push', async () => {
    const { h } = server;
    const { shop, t } = await shopAndTill(h);
    h.net.offline = true;
    const shift = await t.openShift({ opening_float: 20000 });
    const sale = await t.sell({ lines: [{ product_id: shop.unga.id, qty: 5 }], payments: [...SPLIT] });
    // 3 of 5 Unga (7,500): the 5,000 cash part, then 2,500 of the M-Pesa part.
    await t.refund(sale.id, 'torn bags', { lines: [{ product_id: shop.unga.id, qty: 3 }] });
    const x = (await t.shiftReport())!;
    expect(figures(x.methods)).toEqual([
      ['Cash', 5000, 5000, 1, 20000],
      ['M-Pesa', 7500, 2500, 0, 5000],
    ]);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const report = async () => (await h.t.request('GET', `/pos/shifts/${shift.id}`, { token: shop.owner.token })).body.data.report;
    expect((await report()).methods).toEqual(x.methods);
    expect((await report()).totals).toEqual(x.totals);

    // One more, from the server's copy of the sale (refunded_total 7,500): the cash is spent, M-Pesa gives.
    h.net.offline = true;
    await t.refund(sale.id, 'torn bag', { lines: [{ product_id: shop.unga.id, qty: 1 }] });
    const x2 = (await t.shiftReport())!;
    expect(figures(x2.methods)).toEqual([
      ['Cash', 5000, 5000, 1, 20000],
      ['M-Pesa', 7500, 5000, 1, 2500],
    ]);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    expect((await report()).methods).toEqual(x2.methods);
    expect((await report()).totals).toEqual(x2.totals);
    expect(await t.transaction(sale.id)).toMatchObject({ status: 'paid', refunded_total: 10000 });
  });

  it("a credit sale's part comes off the unpaid tab first: the customer owes 3,200 less on the till and on the server", async () => {
    const { h } = server;
    const { shop, t } = await shopAndTill(h);
    h.net.offline = true;
    const customer = await t.createCustomer({ name: 'Halima Said' });
    const payments = [
      { method: 'Cash', amount: 2000 },
      { method: 'Credit', amount: 4400 },
    ] as const;
    const sale = await t.sell({ lines: [{ product_id: shop.rice.id, qty: 2 }], customer_id: customer.id, payments: [...payments] });
    expect((await t.customer(customer.id))!.outstanding_balance).toBe(4400);
    const part = await t.refund(sale.id, 'weevils', { lines: [{ product_id: shop.rice.id, qty: 1 }] });
    expect(part).toMatchObject({ status: 'credit', refunded_total: 3200 });
    expect((await t.customer(customer.id))!.outstanding_balance).toBe(1200);
    expect(await t.stock(shop.rice.id)).toBe(24);
    h.net.offline = false;
    await t.syncNow();
    expect(await t.rejected()).toEqual([]);
    const owes = await h.t.request('GET', `/customers/${customer.id}`, { token: shop.owner.token });
    expect(owes.body.data.outstanding_balance).toBe(1200);
    expect((await t.customer(customer.id))!.outstanding_balance).toBe(1200);
  });

  /** The network to the real server, its answers' version header dropped while `old.v1` (a version-1 server says none). */
  function versionOne(h: Harness) {
    const old = { v1: false };
    const fetch = async (input: string, init?: RequestInit) => {
      const res = await h.net.fetch(input, init);
      if (!old.v1) return res;
      const headers = new Headers(res.headers);
      headers.delete(PROTOCOL_HEADER);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    };
    return { old, fetch };
  }

  it('refused with UPDATE_SERVER while the server speaks 1; one queued before is held until it speaks 2', async () => {
    const { h } = server;
    const { old, fetch } = versionOne(h);
    const { shop, t } = await shopAndTill(h, fetch);
    const sale = await t.sell({ lines: [{ product_id: shop.soda.id, qty: 4 }], payment_method: 'Cash' });
    await t.refund(sale.id, 'flat', { lines: [{ product_id: shop.soda.id, qty: 1 }] });
    old.v1 = true;
    const held: HeldForServer[] = [];
    t.on('held', (e) => held.push(e));
    expect(await t.syncNow()).toMatchObject({ pushed: 1 });
    expect(held[0]).toEqual({ count: 1, server_protocol: 1, needed: 2 });
    expect(t.status()).toMatchObject({ pending: 1, heldForServer: 1, serverProtocol: 1 });
    await expect(t.refund(sale.id, 'flat', { lines: [{ product_id: shop.soda.id, qty: 1 }] })).rejects.toMatchObject({
      code: 'UPDATE_SERVER',
      message:
        "a refund of part of a sale needs a server that speaks sync protocol 2; this till's server speaks 1: update the server, then sync",
    });
    old.v1 = false;
    await t.syncNow();
    expect(t.status()).toMatchObject({ pending: 0, heldForServer: 0 });
    const booked = (await h.t.request('GET', `/pos/transactions/${sale.id}`, { token: shop.owner.token })).body.data;
    expect(booked).toMatchObject({ status: 'paid', refunded_total: 1000 });
  });
});

/**
 * Mobile money through the SDK (issue 38) against the real server and a local Selcom: a push paid
 * by the provider's webhook reaches the till over its websocket with its booked sale; a push
 * cancelled gives its stock back and is then paid in cash under the same id, offline; a till that
 * goes offline while its customer pays learns it on reconnect (its replica kept the request); a sale
 * made offline keeps the customer's number and SMS reference and gets its verification by the pull.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type PaymentUpdate, PushUnavailableError, type Till } from '@duka/client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SelcomFake } from '../../test/fakes/selcom-fake.js';
import { type Harness, openTill, seedShop, serverView, type Shop, signIn, startServer, until } from './harness.js';

const SELCOM = { apiKey: 'selcom-key-0123-8842', apiSecret: 'selcom-SECRET-5e1d', vendor: 'TILL61000042' };

describe('till: mobile money', () => {
  const selcom = new SelcomFake(SELCOM);
  let h: Harness;
  const tills: Till[] = [];
  beforeAll(async () => {
    await selcom.start();
    h = await startServer({ realtime: true, config: { SELCOM_URL: selcom.url } });
    // The callback URL names the server's public origin; the fake posts to this test's port instead.
    selcom.webhookOrigin = new URL(h.base).origin;
  });
  afterAll(async () => {
    await Promise.all(tills.map((t) => t.close()));
    await h.close();
    await selcom.stop();
  });

  /** A shop with a Selcom collection account, and a till signed in and synced. */
  async function shopWithAccount(o: Parameters<typeof openTill>[1] = {}): Promise<{ shop: Shop; till: Till }> {
    const shop = await seedShop(h);
    const res = await h.t.request('POST', '/payments/collection-accounts', {
      token: shop.owner.token,
      body: { provider: 'selcom', label: 'Selcom', credentials: SELCOM },
    });
    expect(res.status, res.text).toBe(201);
    const till = await openTill(h, o);
    if (o.dbPath === undefined) tills.push(till);
    await signIn(till, shop);
    await till.syncNow();
    return { shop, till };
  }
  /** The order Selcom holds for a request, found by the number it was pushed to. */
  const orderPushedTo = (msisdn: string) => [...selcom.orders.values()].filter((o) => o.pushed_to === msisdn).at(-1);
  const updates = (till: Till) => {
    const seen: PaymentUpdate[] = [];
    till.onPayment((u) => seen.push(u));
    return seen;
  };

  it('a push paid by the webhook: the socket says so, the receipt is in the replica at once, and the pull adds no second sale', async () => {
    const { shop, till } = await shopWithAccount({ autoSync: true, syncIntervalMs: 600_000 });
    await until(() => till.status().live, 5000, 'socket open');
    await till.openShift({ opening_float: 10000 });
    const seen = updates(till);
    const asked = await till.askMobilePayment({
      lines: [
        { product_id: shop.soda.id, qty: 2 },
        { product_id: shop.unga.id, qty: 1 },
      ],
      payment_method: 'M-Pesa',
      phone: '0754 123 456',
    });
    expect(asked).toMatchObject({ status: 'awaiting_payment', method: 'M-Pesa', phone: '+255754123456', amount: 4500, sale: null });
    expect(await till.pendingMobilePayments()).toMatchObject([
      { id: asked.id, phone: '+255754123456', state: { status: 'awaiting_payment' } },
    ]);
    const order = orderPushedTo('255754123456');
    expect(order).toMatchObject({ amount: 4500, buyer_phone: '255754123456', payment_status: 'PENDING' });
    const view = await serverView(h, shop);
    expect(await view.stock(shop.soda.id)).toBe(38);

    expect(await selcom.webhook(order!.order_id)).toBe(200);
    await until(() => seen.some((u) => u.status === 'paid'), 5000, 'the paid message');
    const paid = seen.find((u) => u.status === 'paid')!;
    expect(paid).toMatchObject({ id: asked.id, sale_id: asked.id });
    expect(paid.receipt).toMatchObject({
      id: asked.id,
      payment_method: 'M-Pesa',
      payment_phone: '+255754123456',
      total: 4500,
      sync_state: 'synced',
    });
    expect(paid.receipt!.receipt_number).toMatch(/-\d{6}$/);
    // Awaiting (its words may change as the push goes out: each change is told), then paid, once.
    expect(seen.map((u) => u.status).filter((x, i, all) => x !== all[i - 1])).toEqual(['awaiting_payment', 'paid']);
    expect(seen.filter((u) => u.status === 'paid')).toHaveLength(1);
    expect(await till.pendingMobilePayments()).toEqual([]);

    await till.syncNow();
    const mine = (await till.recentTransactions()).filter((r) => r.id === asked.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.receipt_number).toBe(paid.receipt!.receipt_number);
    expect((await view.transactions()).items.map((t) => [t.id, t.receipt_number, t.payment_method])).toEqual([
      [asked.id, paid.receipt!.receipt_number, 'M-Pesa'],
    ]);
    expect(await till.stock(shop.soda.id)).toBe(38);
    // Its money is in the cashier's shift as the till counts it, like any sale's.
    expect((await till.shiftReport())!.methods.map((m) => [m.method, m.sales, m.expected])).toEqual([
      ['Cash', 0, 10000],
      ['M-Pesa', 4500, 4500],
    ]);
  });

  it('without the websocket the till asks the server every few seconds while a push awaits, and stops once it is over', async () => {
    const { shop, till } = await shopWithAccount({ autoSync: true, realtime: false, syncIntervalMs: 600_000, paymentPollMs: 40 });
    const seen = updates(till);
    const asked = await till.askMobilePayment({
      lines: [{ product_id: shop.unga.id, qty: 1 }],
      payment_method: 'M-Pesa',
      phone: '0745 000 444',
    });
    const polls = () => h.net.calls.filter((c) => c === `GET /payments/requests/${asked.id}`).length;
    await until(() => polls() >= 2, 5000, 'the till polling');
    expect(await selcom.webhook(orderPushedTo('255745000444')!.order_id)).toBe(200);
    await until(() => seen.some((u) => u.status === 'paid'), 5000, 'the payment learnt by polling');
    expect(till.status().live).toBe(false);
    expect((await till.transaction(asked.id))?.payment_method).toBe('M-Pesa');
    const after = polls();
    await new Promise((r) => setTimeout(r, 200));
    expect(polls()).toBe(after);
  });

  it('cancelled: the stock comes back; then cash instead under the same id, sold offline once the cancel reached the server', async () => {
    const { shop, till } = await shopWithAccount();
    const view = await serverView(h, shop);
    const seen = updates(till);
    const asked = await till.askMobilePayment({
      lines: [{ product_id: shop.rice.id, qty: 3 }],
      payment_method: 'Airtel Money',
      phone: '+255 781 000 111',
    });
    expect(asked).toMatchObject({ status: 'awaiting_payment', amount: 9600, network: 'airtel' });
    expect(orderPushedTo('255781000111')).toMatchObject({ amount: 9600 });
    expect(await view.stock(shop.rice.id)).toBe(22);

    const cancelled = await till.cancelMobilePayment(asked.id);
    expect(cancelled).toMatchObject({ id: asked.id, status: 'cancelled', sale: null });
    expect(await view.stock(shop.rice.id)).toBe(25);
    expect(seen.map((u) => u.status)).toEqual(['awaiting_payment', 'cancelled']);

    h.net.offline = true;
    const cash = await till.payCashInstead(asked.id, { cash_tendered: 10000 });
    expect(cash).toMatchObject({ id: asked.id, payment_method: 'Cash', total: 9600, change_given: 400, sync_state: 'pending' });
    expect(await till.pendingMobilePayments()).toEqual([]);
    // Asked again (a double tap), it is the same sale, not a second one.
    expect((await till.payCashInstead(asked.id)).client_receipt_number).toBe(cash.client_receipt_number);
    h.net.offline = false;
    expect((await till.syncNow()).pushed).toBe(1);
    expect(await till.rejected()).toEqual([]);
    expect((await view.transactions()).items.map((t) => [t.id, t.payment_method, t.total])).toEqual([[asked.id, 'Cash', 9600]]);
    expect(await view.stock(shop.rice.id)).toBe(22);
  });

  it('cash instead refuses to sell while the cancel cannot reach the server', async () => {
    const { shop, till } = await shopWithAccount();
    const asked = await till.askMobilePayment({
      lines: [{ product_id: shop.soda.id, qty: 1 }],
      payment_method: 'M-Pesa',
      phone: '0755 000 222',
    });
    h.net.offline = true;
    await expect(till.payCashInstead(asked.id)).rejects.toMatchObject({
      code: 'NETWORK',
      message: expect.stringContaining('may still pay'),
    });
    expect(await till.recentTransactions()).toEqual([]);
    h.net.offline = false;
    expect((await till.payCashInstead(asked.id)).payment_method).toBe('Cash');
  });

  it('a till offline while the customer pays keeps the request in its replica and learns the result on reconnect', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'duka-mm-'));
    const dbPath = path.join(dir, 'till.db');
    try {
      const { shop, till } = await shopWithAccount({ dbPath });
      const asked = await till.askMobilePayment({
        lines: [{ product_id: shop.unga.id, qty: 2 }],
        payment_method: 'Tigo Pesa',
        phone: '0652 000 333',
      });
      h.net.offline = true;
      await till.syncNow().catch(() => undefined);
      expect(till.status().online).toBe(false);
      await till.close();

      expect(await selcom.webhook(orderPushedTo('255652000333')!.order_id)).toBe(200);
      const again = await openTill(h, { dbPath });
      try {
        expect((await again.pendingMobilePayments()).map((p) => [p.id, p.state?.status])).toEqual([[asked.id, 'awaiting_payment']]);
        const seen = updates(again);
        h.net.offline = false;
        await again.syncNow();
        await until(() => seen.length > 0, 5000, 'the payment learnt on reconnect');
        expect(seen).toMatchObject([{ id: asked.id, status: 'paid', receipt: { id: asked.id, payment_method: 'Tigo Pesa', total: 5000 } }]);
        expect((await again.transaction(asked.id))?.receipt_number).toBe(seen[0]!.receipt!.receipt_number);
        expect(await again.pendingMobilePayments()).toEqual([]);
      } finally {
        await again.close();
      }
    } finally {
      h.net.offline = false;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('offline the push is refused for the SMS path; the sale keeps the number and the reference, and the pull its verification', async () => {
    const { shop, till } = await shopWithAccount();
    await expect(
      till.askMobilePayment({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'M-Pesa', phone: '0754 12' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'phone',
    });
    h.net.offline = true;
    await till.syncNow().catch(() => undefined);
    const refused = await till
      .askMobilePayment({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'M-Pesa', phone: '0754 123 456' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PushUnavailableError);
    expect(refused).toMatchObject({ code: 'PUSH_UNAVAILABLE', reason: 'offline', message: expect.stringContaining('payment_reference') });

    const sale = await till.sell({
      lines: [{ product_id: shop.soda.id, qty: 1 }],
      payment_method: 'M-Pesa',
      payment_phone: '0754 123 456',
      payment_reference: 'QK7X2M9P',
    });
    expect(sale).toMatchObject({
      payment_phone: '+255754123456',
      payment_reference: 'QK7X2M9P',
      payment_verification: null,
      sync_state: 'pending',
    });
    h.net.offline = false;
    await till.syncNow();
    const server = (await serverView(h, shop).then((v) => v.transactions())).items.find((t) => t.id === sale.id)!;
    // No payment with this reference has come in: the store collects, so it waits to be verified.
    expect(server).toMatchObject({
      payment_phone: '+255754123456',
      payment_reference: 'QK7X2M9P',
      source: 'offline',
      payment_verification: 'unverified',
    });
    const synced = await till.transaction(sale.id);
    expect(synced).toMatchObject({ payment_phone: '+255754123456', sync_state: 'synced' });
    expect(synced!.payment_verification).toBe('unverified');
  });

  it('a store without a collection account: the push is refused for the SMS path, and nothing is held', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    tills.push(till);
    await signIn(till, shop);
    await till.syncNow();
    const refused = await till
      .askMobilePayment({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'M-Pesa', phone: '0754 123 456' })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'PUSH_UNAVAILABLE', reason: 'no_collection_account' });
    expect(await till.pendingMobilePayments()).toEqual([]);
    expect(await serverView(h, shop).then((v) => v.stock(shop.soda.id))).toBe(40);
  });
});

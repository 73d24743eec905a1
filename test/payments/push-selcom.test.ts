/**
 * Push at checkout through a shop's Selcom account, over real HTTP against the local Selcom fake
 * (which checks every signature and field): the sale held, then booked by the signed webhook; the
 * webhook twice, twice at once and forged; Selcom's published six-field webhook (no amount);
 * stale or partly signed webhooks refused; lost and recovered by the status query with backoff;
 * another amount paid; a push refused, unanswered, or answered and lost on its way back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPaymentRequestJobs } from '../../server/src/modules/payments/requests/request-jobs.js';
import { attachRealtime, type RealtimeServer } from '../../server/src/sync/ws/attach.js';
import { paymentRef, SelcomFake } from '../fakes/selcom-fake.js';
import { ask, booked, checkout, pushShop, readRequest, stockOf } from '../setup/push-factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';
import { connect, wsUrl } from '../setup/ws-client.js';

const SELCOM = { apiKey: 'selcom-key-0123-8842', apiSecret: 'selcom-secret-5e1d', vendor: 'TILL61000042' };

describe('push at checkout through Selcom', () => {
  let t: TestApp;
  let http: Listening;
  let realtime: RealtimeServer;
  const selcom = new SelcomFake(SELCOM);
  beforeAll(async () => {
    await selcom.start();
    t = await createTestApp({ config: { SELCOM_URL: selcom.url, PUBLIC_URL: 'https://duka.example', PAYMENT_TIMEOUT_MS: 300 } });
    http = await listen(t);
    realtime = attachRealtime(http.server, t.deps, { heartbeatMs: 60_000 });
    selcom.webhookOrigin = http.origin;
  });
  afterAll(async () => {
    await realtime.close();
    await http.close();
    await selcom.stop();
    await t.close();
  });

  const shop = () => pushShop(t, SELCOM, 'selcom');
  const statusQueries = (orderId: string) =>
    selcom.requests.filter((r) => r.url === `/v1/checkout/order-status?order_id=${orderId}`).length;

  it('holds the stock at once, books the sale only on the signed webhook, and tells the store’s tills awaiting then paid', async () => {
    const s = await shop();
    const till = await connect(wsUrl(http.origin), s.cashier.token);
    const body = checkout(s);
    const request = await ask(t, s.cashier, body);
    const id = body.sale.id;
    expect(request).toMatchObject({
      id,
      status: 'awaiting_payment',
      attempt: 1,
      method: 'M-Pesa',
      network: 'mpesa',
      phone: '+255754123456',
      amount: 15_700,
      can_query: true,
      sale_id: null,
      sale: null,
      detail: "asked the customer's phone: waiting for them to confirm",
    });
    expect(Date.parse(request.expires_at) - Date.parse(request.created_at)).toBe(180_000);
    expect(selcom.orders.get(id)).toEqual({
      order_id: id,
      amount: 15_700,
      buyer_phone: '255754123456',
      pushed_to: '255754123456',
      webhook: expect.stringMatching(new RegExp(`^https://duka\\.example/api/v1/payments/callbacks/${s.account.id}\\?token=`)),
      payment_status: 'PENDING',
    });
    expect(await stockOf(t, s)).toEqual([7, 4]);
    expect(await booked(t, s)).toMatchObject({ sales: [], received: [], lastNumber: 0 });
    expect((await t.request('GET', `/pos/transactions/${id}`, { token: s.cashier.token })).status).toBe(404);
    expect((await till.next('payment', 2000)).payment).toMatchObject({ id, status: 'awaiting_payment', attempt: 1, sale_id: null });

    expect(await selcom.webhook(id)).toBe(200);
    const paid = await readRequest(t, s.cashier, id);
    expect(paid).toMatchObject({ status: 'paid', sale_id: id, detail: 'paid' });
    expect(paid.sale).toMatchObject({
      id,
      number: 1,
      receipt_number: expect.stringMatching(/-000001$/),
      status: 'paid',
      payment_method: 'M-Pesa',
      payment_reference: paymentRef(id),
      payment_phone: '+255754123456',
      payment_verification: 'verified',
      total: 15_700,
      cashier_id: s.cashier.user.id,
      source: 'online',
    });
    expect(paid.sale!.lines.map((l) => [l.product_name, l.qty, l.unit_price, l.line_total])).toEqual([
      ['Sukari 1kg', 3, 3200, 9600],
      ['Mafuta 1L', 1, 6100, 6100],
    ]);
    expect(await stockOf(t, s)).toEqual([7, 4]);
    const after = await booked(t, s);
    expect(after.lastNumber).toBe(1);
    expect(
      after.received.map((r) => [r.provider_ref, r.reference, Number(r.amount), r.status, r.matched_sale_id, Number(r.matched_at)]),
    ).toEqual([[paymentRef(id), id, 1_570_000, 'paid', id, t.clock.now()]]);
    expect((await till.next('payment', 2000, (m) => m.payment.status === 'paid')).payment).toEqual({
      id,
      status: 'paid',
      detail: 'paid',
      attempt: 1,
      sale_id: id,
    });

    // Delivered again: answered, nothing new.
    expect(await selcom.webhook(id)).toBe(200);
    expect(await booked(t, s)).toEqual(after);
    expect(await stockOf(t, s)).toEqual([7, 4]);
    await till.close();
  });

  it('a forged webhook is 401 and changes nothing; the same webhook twice at once books one sale', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;
    expect(await selcom.webhook(id, 'COMPLETED', { forge: true })).toBe(401);
    expect((await readRequest(t, s.cashier, id)).status).toBe('awaiting_payment');
    expect(await booked(t, s)).toMatchObject({ sales: [], received: [], lastNumber: 0 });

    expect(await Promise.all([selcom.webhook(id), selcom.webhook(id)])).toEqual([200, 200]);
    const { sales, received, lastNumber } = await booked(t, s);
    expect(sales.map((x) => [x.id, x.payment_verification])).toEqual([[id, 'verified']]);
    expect(received.map((r) => r.matched_sale_id)).toEqual([id]);
    expect(lastNumber).toBe(1);
    expect(await stockOf(t, s)).toEqual([7, 4]);
  });

  it("books the sale at once on Selcom's webhook as its docs show it: six signed fields and no amount", async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;
    expect(await selcom.webhook(id, 'COMPLETED', { published: true })).toBe(200);
    expect(await readRequest(t, s.cashier, id)).toMatchObject({ status: 'paid', sale_id: id, detail: 'paid' });
    const { sales, received, lastNumber } = await booked(t, s);
    expect(sales.map((x) => [x.id, Number(x.total), x.payment_reference, x.payment_verification])).toEqual([
      [id, 1_570_000, paymentRef(id), 'verified'],
    ]);
    expect(received.map((r) => [r.provider_ref, r.reference, Number(r.amount), r.status, r.matched_sale_id])).toEqual([
      [paymentRef(id), id, 1_570_000, 'paid', id],
    ]);
    expect(lastNumber).toBe(1);
    expect(statusQueries(id)).toBe(0);
  });

  it('refuses a stale webhook and one whose reference, status or amount is not signed, changing nothing', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;
    expect(await selcom.webhook(id, 'COMPLETED', { published: true, at: Date.UTC(2020, 0, 1) })).toBe(401);
    expect(await selcom.webhook(id, 'COMPLETED', { published: true, at: Date.now() - 16 * 60_000 })).toBe(401);
    expect(await selcom.webhook(id, 'COMPLETED', { published: true, at: Date.now() + 16 * 60_000 })).toBe(401);
    for (const field of ['reference', 'payment_status', 'order_id'])
      expect(await selcom.webhook(id, 'COMPLETED', { published: true, unsigned: [field] }), field).toBe(401);
    // A body that carries an amount must sign it: it decides whether the sale is paid.
    expect(await selcom.webhook(id, 'COMPLETED', { unsigned: ['amount'] })).toBe(401);
    expect((await readRequest(t, s.cashier, id)).status).toBe('awaiting_payment');
    expect(await booked(t, s)).toMatchObject({ sales: [], received: [], lastNumber: 0 });
    // Within the window, signed as Selcom signs it: paid.
    expect(await selcom.webhook(id, 'COMPLETED', { published: true, at: Date.now() - 10 * 60_000 })).toBe(200);
    expect((await readRequest(t, s.cashier, id)).status).toBe('paid');
  });

  it('recovers a lost webhook by asking Selcom, backing off, and the late webhook then changes nothing', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;

    await runPaymentRequestJobs(t.deps);
    expect(statusQueries(id)).toBe(0);
    t.clock.advance(30_000);
    await runPaymentRequestJobs(t.deps);
    expect(statusQueries(id)).toBe(1);
    expect((await readRequest(t, s.cashier, id)).status).toBe('awaiting_payment');

    selcom.settle(id, 'COMPLETED');
    // The second question waits a minute after the first.
    t.clock.advance(30_000);
    await runPaymentRequestJobs(t.deps);
    expect(statusQueries(id)).toBe(1);
    t.clock.advance(30_000);
    await runPaymentRequestJobs(t.deps);
    expect(statusQueries(id)).toBe(2);

    const paid = await readRequest(t, s.cashier, id);
    expect(paid).toMatchObject({ status: 'paid', sale_id: id });
    expect(paid.sale).toMatchObject({ payment_verification: 'verified', payment_reference: paymentRef(id), total: 15_700 });
    expect(await stockOf(t, s)).toEqual([7, 4]);
    const after = await booked(t, s);
    expect(after.received.map((r) => [r.provider_ref, Number(r.amount), r.matched_sale_id])).toEqual([[paymentRef(id), 1_570_000, id]]);

    expect(await selcom.webhook(id)).toBe(200);
    expect(await booked(t, s)).toEqual(after);
    t.clock.advance(300_000);
    await runPaymentRequestJobs(t.deps);
    expect(statusQueries(id)).toBe(2);
  });

  it('the webhook racing the status query, or the cashier’s cancel, ends one way only, with stock and payments to match', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    selcom.settle(body.sale.id, 'COMPLETED');
    t.clock.advance(30_000);
    await Promise.all([selcom.webhook(body.sale.id), runPaymentRequestJobs(t.deps)]);
    expect((await readRequest(t, s.cashier, body.sale.id)).status).toBe('paid');
    const once = await booked(t, s);
    expect([once.sales.length, once.lastNumber, once.received.map((r) => r.matched_sale_id)]).toEqual([1, 1, [body.sale.id]]);
    expect(await stockOf(t, s)).toEqual([7, 4]);

    for (let i = 0; i < 4; i++) {
      const race = checkout(s, { sale: { lines: [{ product_id: s.sugar.id, qty: 1 }] } });
      await ask(t, s.cashier, race);
      const [cancel, hook] = await Promise.all([
        t.request('POST', `/payments/requests/${race.sale.id}/cancel`, { token: s.cashier.token }),
        selcom.webhook(race.sale.id),
      ]);
      expect(hook).toBe(200);
      const now = await readRequest(t, s.cashier, race.sale.id);
      const payment = (await booked(t, s)).received.find((r) => r.reference === race.sale.id)!;
      if (now.status === 'paid') {
        expect([cancel.status, cancel.body.message]).toEqual([409, 'already paid: refund the sale instead']);
        expect(payment.matched_sale_id).toBe(race.sale.id);
      } else {
        expect([cancel.status, now.status, now.sale_id, payment.matched_sale_id]).toEqual([200, 'cancelled', null, null]);
      }
    }
    const { sales } = await booked(t, s);
    const paidRaces = sales.length - 1;
    expect(await stockOf(t, s)).toEqual([7 - paidRaces, 4]);
  });

  it('a push nobody answers is asked about one last time at its end, then expires with the stock back; a payment after that stays unmatched', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;
    for (const step of [30_000, 60_000, 60_000]) {
      t.clock.advance(step);
      await runPaymentRequestJobs(t.deps);
    }
    expect(statusQueries(id)).toBe(2);
    expect(await stockOf(t, s)).toEqual([7, 4]);
    t.clock.advance(30_000);
    await runPaymentRequestJobs(t.deps);
    expect(statusQueries(id)).toBe(3);
    expect(await readRequest(t, s.cashier, id)).toMatchObject({
      status: 'expired',
      detail: 'no answer from the customer in time: nothing was paid',
    });
    expect(await stockOf(t, s)).toEqual([10, 5]);

    expect(await selcom.webhook(id)).toBe(200);
    const { sales, received } = await booked(t, s);
    expect(sales).toEqual([]);
    expect(received.map((r) => [r.reference, r.matched_sale_id])).toEqual([[id, null]]);
    expect(await stockOf(t, s)).toEqual([10, 5]);
  });

  it('another amount paid fails the request, gives the stock back and leaves the payment unmatched', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;
    expect(await selcom.webhook(id, 'COMPLETED', { amount: 15_000 })).toBe(200);
    expect(await readRequest(t, s.cashier, id)).toMatchObject({
      status: 'failed',
      sale_id: null,
      detail: 'the customer paid 15,000 TZS, the sale is 15,700 TZS',
    });
    expect(await stockOf(t, s)).toEqual([10, 5]);
    const { sales, received, lastNumber } = await booked(t, s);
    expect([sales, lastNumber]).toEqual([[], 0]);
    expect(received.map((r) => [Number(r.amount), r.status, r.matched_sale_id])).toEqual([[1_500_000, 'paid', null]]);
  });

  it('a push Selcom refuses fails at once with its words and the stock back', async () => {
    const s = await shop();
    const body = checkout(s);
    selcom.next('ok', { reject: 'Subscriber not registered for mobile money' });
    const request = await ask(t, s.cashier, body);
    expect(request).toMatchObject({ status: 'failed', detail: 'Selcom: Subscriber not registered for mobile money' });
    expect(await stockOf(t, s)).toEqual([10, 5]);
  });

  it('a push that times out keeps waiting; one answered but lost on the way back is paid, and a till that was away reads it', async () => {
    const s = await shop();
    const slow = checkout(s);
    selcom.next('hang');
    expect(await ask(t, s.cashier, slow)).toMatchObject({
      status: 'awaiting_payment',
      detail: 'Selcom: no answer within 300 ms: the push may still reach the phone; waiting for the answer',
    });
    expect(await stockOf(t, s)).toEqual([7, 4]);

    const lost = checkout(s, { sale: { lines: [{ product_id: s.oil.id, qty: 2 }] } });
    selcom.next('ok', 'lose');
    expect(await ask(t, s.cashier, lost)).toMatchObject({
      status: 'awaiting_payment',
      amount: 12_200,
      detail: 'Selcom could not be reached: the push may still reach the phone; waiting for the answer',
    });
    expect(selcom.orders.get(lost.sale.id)?.pushed_to).toBe('255754123456');
    expect(await stockOf(t, s)).toEqual([7, 2]);

    expect(await selcom.webhook(lost.sale.id)).toBe(200);
    const back = await readRequest(t, s.cashier, lost.sale.id);
    expect(back).toMatchObject({ status: 'paid', sale: { total: 12_200, payment_verification: 'verified' } });
    expect(await stockOf(t, s)).toEqual([7, 2]);
  });
});

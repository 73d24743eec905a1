/**
 * Push at checkout through a shop's AzamPay account, over real HTTP against the local AzamPay fake:
 * paid by its callback; a lost callback expires the request (AzamPay has no status query); the
 * cashier's cancel, retry and cash fallback; payments for a cancelled request or an older attempt
 * left unmatched; the sale's own refusals; who may see which request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPaymentRequestJobs } from '../../server/src/modules/payments/requests/request-jobs.js';
import { AzamPayFake } from '../fakes/azampay-fake.js';
import { registerOwner } from '../setup/factories.js';
import { ask, asked, booked, checkout, type PushShop, pushShop, readRequest, stockOf } from '../setup/push-factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

const AZAM = { appName: 'duka-shop', clientId: 'azam-client-7731', clientSecret: 'azam-secret-9f2e', apiKey: 'azam-apikey-44aa' };

describe('push at checkout through AzamPay', () => {
  let t: TestApp;
  let http: Listening;
  const azampay = new AzamPayFake(AZAM);
  beforeAll(async () => {
    await azampay.start();
    t = await createTestApp({
      config: {
        AZAMPAY_AUTH_URL: azampay.url,
        AZAMPAY_CHECKOUT_URL: azampay.url,
        PUBLIC_URL: 'https://duka.example',
        PAYMENT_TIMEOUT_MS: 300,
      },
    });
    http = await listen(t);
  });
  afterAll(async () => {
    await http.close();
    await azampay.stop();
    await t.close();
  });

  const shop = () => pushShop(t, AZAM, 'azampay');
  const callbackOf = (s: PushShop) => s.account.callback_url.replace(/^https?:\/\/[^/]+/, http.origin);
  const pushFor = (reference: string) => azampay.pushes.find((p) => p.externalId === reference)!;
  const act = (s: PushShop, id: string, what: 'cancel' | 'retry', body?: unknown) =>
    t.request('POST', `/payments/requests/${id}/${what}`, { token: s.cashier.token, body });

  it('pushes the amount to the phone, and the callback books the sale once', async () => {
    const s = await shop();
    const body = checkout(s, { sale: { payment_method: 'Airtel Money' }, phone: '+255 68 765 4321' });
    const request = await ask(t, s.cashier, body);
    const id = body.sale.id;
    expect(request).toMatchObject({
      status: 'awaiting_payment',
      network: 'airtel',
      phone: '+255687654321',
      amount: 15_700,
      can_query: false,
    });
    expect(pushFor(id)).toEqual({
      accountNumber: '255687654321',
      amount: '15700',
      externalId: id,
      provider: 'Airtel',
      transactionId: expect.any(String),
    });
    expect(await stockOf(t, s)).toEqual([7, 4]);

    expect(await azampay.pay(pushFor(id), callbackOf(s))).toBe(200);
    expect(await azampay.pay(pushFor(id), callbackOf(s))).toBe(200);
    const paid = await readRequest(t, s.cashier, id);
    expect(paid.sale).toMatchObject({
      id,
      payment_method: 'Airtel Money',
      payment_reference: pushFor(id).transactionId,
      payment_phone: '+255687654321',
      payment_verification: 'verified',
      total: 15_700,
    });
    expect(await stockOf(t, s)).toEqual([7, 4]);
    const { sales, received } = await booked(t, s);
    expect(sales).toHaveLength(1);
    expect(received.map((r) => [r.provider_ref, r.matched_sale_id])).toEqual([[pushFor(id).transactionId, id]]);
  });

  it('a lost callback: the request expires after its wait and the stock comes back; the sale recorded with the SMS reference is verified by the late payment', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;
    t.clock.advance(179_000);
    await runPaymentRequestJobs(t.deps);
    expect((await readRequest(t, s.cashier, id)).status).toBe('awaiting_payment');
    expect(await stockOf(t, s)).toEqual([7, 4]);
    t.clock.advance(1_000);
    await runPaymentRequestJobs(t.deps);
    expect(await readRequest(t, s.cashier, id)).toMatchObject({
      status: 'expired',
      detail: 'no answer from the provider in time: if the customer paid, record the sale with the reference from their SMS',
    });
    expect(await stockOf(t, s)).toEqual([10, 5]);
    // The job again: nothing more comes back.
    await runPaymentRequestJobs(t.deps);
    expect(await stockOf(t, s)).toEqual([10, 5]);

    // The documented manual path: the customer shows the SMS, and the cashier records the sale with
    // the mobile network's reference from it. It waits, unverified, for the provider's word.
    const push = pushFor(id);
    const smsRef = `FSP${push.transactionId}`;
    const sold = await t.request('POST', '/pos/sale', {
      token: s.cashier.token,
      body: { ...body.sale, payment_reference: smsRef.toLowerCase(), payment_phone: '0754 123 456' },
    });
    expect(sold.status, sold.text).toBe(201);
    await t.deps.afterAnswer.idle();
    let { sales, received } = await booked(t, s);
    expect(sales.map((x) => [x.id, x.payment_method, Number(x.total), x.payment_verification])).toEqual([
      [id, 'M-Pesa', 1_570_000, 'unverified'],
    ]);
    expect(received).toEqual([]);
    expect(await stockOf(t, s)).toEqual([7, 4]);

    // The late callback: the request stays expired, and the payment verifies the cashier's sale.
    expect(await azampay.pay(push, callbackOf(s))).toBe(200);
    ({ sales, received } = await booked(t, s));
    expect(received.map((r) => [Number(r.amount), r.wallet_ref, r.matched_sale_id])).toEqual([[1_570_000, smsRef, id]]);
    expect(sales.map((x) => [x.id, x.payment_verification])).toEqual([[id, 'verified']]);
    expect((await readRequest(t, s.cashier, id)).status).toBe('expired');
    expect(await stockOf(t, s)).toEqual([7, 4]);
    // Delivered again: nothing changes.
    expect(await azampay.pay(push, callbackOf(s))).toBe(200);
    expect((await booked(t, s)).received).toHaveLength(1);
  });

  it('cancel gives the stock back exactly; a payment after it books nothing; retry holds again as <id>.2 and pays that attempt only', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;
    const cancelled = await act(s, id, 'cancel');
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(asked(cancelled)).toMatchObject({ status: 'cancelled', detail: 'cancelled by the cashier' });
    expect(await stockOf(t, s)).toEqual([10, 5]);
    const again = await act(s, id, 'cancel');
    expect(asked(again)).toEqual(asked(cancelled));
    expect(await stockOf(t, s)).toEqual([10, 5]);

    expect(await azampay.pay(pushFor(id), callbackOf(s))).toBe(200);
    expect(await booked(t, s)).toMatchObject({ sales: [], lastNumber: 0 });
    expect((await booked(t, s)).received.map((r) => r.matched_sale_id)).toEqual([null]);

    const retried = await act(s, id, 'retry', { phone: '0712 000 111' });
    expect(retried.status, retried.text).toBe(200);
    expect(asked(retried)).toMatchObject({
      status: 'awaiting_payment',
      attempt: 2,
      phone: '+255712000111',
      network: 'mpesa',
      amount: 15_700,
    });
    expect(pushFor(`${id}.2`)).toMatchObject({ accountNumber: '255712000111', amount: '15700', provider: 'Mpesa' });
    expect(await stockOf(t, s)).toEqual([7, 4]);
    expect((await act(s, id, 'retry')).status).toBe(409);

    // The first attempt's payment delivered again changes nothing; the second attempt's pays.
    expect(await azampay.pay(pushFor(id), callbackOf(s))).toBe(200);
    expect((await readRequest(t, s.cashier, id)).status).toBe('awaiting_payment');
    expect(await azampay.pay(pushFor(`${id}.2`), callbackOf(s))).toBe(200);
    expect(await readRequest(t, s.cashier, id)).toMatchObject({ status: 'paid', attempt: 2, sale: { payment_phone: '+255712000111' } });
    expect(await stockOf(t, s)).toEqual([7, 4]);
    const { sales, received } = await booked(t, s);
    expect(sales).toHaveLength(1);
    expect(received.map((r) => [r.provider_ref, r.matched_sale_id])).toEqual([
      [pushFor(id).transactionId, null],
      [pushFor(`${id}.2`).transactionId, id],
    ]);

    const late = await act(s, id, 'cancel');
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('already paid: refund the sale instead');
    expect((await act(s, id, 'retry')).status).toBe(409);
  });

  it('a failure callback fails the request and gives the stock back; the cashier then takes cash with the same sale id', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const id = body.sale.id;
    expect(await azampay.pay(pushFor(id), callbackOf(s), 'failure')).toBe(200);
    expect(await readRequest(t, s.cashier, id)).toMatchObject({ status: 'failed', detail: 'Insufficient balance' });
    expect(await stockOf(t, s)).toEqual([10, 5]);

    const cash = await t.request('POST', '/pos/sale', {
      token: s.cashier.token,
      body: { ...body.sale, payment_method: 'Cash', cash_tendered: 20_000 },
    });
    expect(cash.status, cash.text).toBe(201);
    expect(cash.body.data).toMatchObject({ id, payment_method: 'Cash', total: 15_700, change_given: 4_300, payment_verification: null });
    expect(await stockOf(t, s)).toEqual([7, 4]);
    // A request for a sale that is already recorded is refused.
    expect((await act(s, id, 'retry')).status).toBe(409);
    expect(await stockOf(t, s)).toEqual([7, 4]);
  });

  it('cancel then cash: the waiting stock comes back and the cash sale takes it once', async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    expect((await act(s, body.sale.id, 'cancel')).status).toBe(200);
    const cash = await t.request('POST', '/pos/sale', { token: s.cashier.token, body: { ...body.sale, payment_method: 'Cash' } });
    expect(cash.status, cash.text).toBe(201);
    expect(await stockOf(t, s)).toEqual([7, 4]);
    expect(await azampay.pay(pushFor(body.sale.id), callbackOf(s))).toBe(200);
    const { sales, received } = await booked(t, s);
    expect(sales.map((x) => x.payment_method)).toEqual(['Cash']);
    expect(received.map((r) => r.matched_sale_id)).toEqual([null]);
  });

  it('refuses what POST /pos/sale refuses, naming the field under sale, and writes nothing; the same body again answers the request', async () => {
    const s = await shop();
    const short = checkout(s, { sale: { lines: [{ product_id: s.oil.id, qty: 6 }] } });
    const res = await t.request('POST', '/payments/requests', { token: s.cashier.token, body: short });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([
      { code: 'INSUFFICIENT_STOCK', field: 'sale.lines.0.qty', message: 'not enough stock of Mafuta 1L: 5 available' },
    ]);
    const discount = await t.request('POST', '/payments/requests', {
      token: s.cashier.token,
      body: checkout(s, { sale: { discount_pct: 10 } }),
    });
    expect(discount.status).toBe(403);
    const phone = await t.request('POST', '/payments/requests', { token: s.cashier.token, body: checkout(s, { phone: '0212 345 678' }) });
    expect(phone.status).toBe(400);
    expect(phone.body.errors[0].field).toBe('phone');
    const cents = await t.request('POST', '/payments/requests', {
      token: s.owner.token,
      body: checkout(s, { sale: { discount_pct: 0.5, lines: [{ product_id: s.oil.id, qty: 1 }] } }),
    });
    expect(cents.status).toBe(422);
    expect(cents.body.errors[0].field).toBe('sale');
    const pushes = azampay.pushes.length;
    expect(await stockOf(t, s)).toEqual([10, 5]);
    expect(await t.db.db.selectFrom('payment_requests').select('id').where('org_id', '=', s.owner.orgId).execute()).toEqual([]);

    const body = checkout(s);
    const first = await ask(t, s.cashier, body);
    const replay = await ask(t, s.cashier, body, 200);
    expect(replay).toEqual(first);
    expect(azampay.pushes.length).toBe(pushes + 1);
    const other = await t.request('POST', '/payments/requests', { token: s.cashier.token, body: { ...body, phone: '0754 999 888' } });
    expect(other.status).toBe(409);
    expect(await stockOf(t, s)).toEqual([7, 4]);
  });

  it("a store's own collection account takes its pushes over the organisation-wide one", async () => {
    const s = await shop();
    const own = await t.request('POST', '/payments/collection-accounts', {
      token: s.owner.token,
      body: { provider: 'azampay', label: 'The store till', store_id: s.owner.storeId, credentials: AZAM },
    });
    expect(own.status, own.text).toBe(201);
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const row = await t.db.db
      .selectFrom('payment_requests')
      .select('account_id')
      .where('org_id', '=', s.owner.orgId)
      .where('id', '=', body.sale.id)
      .executeTakeFirstOrThrow();
    expect(row.account_id).toBe(own.body.data.id);
    expect(row.account_id).not.toBe(s.account.id);
  });

  it("takes one access token for an account's pushes while it lives, and a new one for each push once AzamPay's tokens outlive it by less than the margin", async () => {
    const s = await shop();
    const before = azampay.tokensIssued.length;
    for (let i = 0; i < 3; i++) await ask(t, s.cashier, checkout(s));
    expect(azampay.tokensIssued.length - before).toBe(1);
    expect(
      new Set(
        azampay.requests
          .filter((r) => r.url === '/azampay/mno/checkout')
          .slice(-3)
          .map((r) => r.headers.authorization),
      ).size,
    ).toBe(1);
    // Tokens living 30 s are renewed before each push (the driver renews a minute before expiry).
    const ttl = azampay.tokenTtlMs;
    azampay.tokenTtlMs = 30_000;
    try {
      const other = await shop();
      const from = azampay.tokensIssued.length;
      for (let i = 0; i < 2; i++) await ask(t, other.cashier, checkout(other));
      expect(azampay.tokensIssued.length - from).toBe(2);
    } finally {
      azampay.tokenTtlMs = ttl;
    }
  });

  it("another organisation's request is 404; a store without a collection account is 409 for the SMS path", async () => {
    const s = await shop();
    const body = checkout(s);
    await ask(t, s.cashier, body);
    const stranger = await registerOwner(t);
    for (const [method, path] of [
      ['GET', `/payments/requests/${body.sale.id}`],
      ['POST', `/payments/requests/${body.sale.id}/cancel`],
      ['POST', `/payments/requests/${body.sale.id}/retry`],
    ] as const) {
      const res = await t.request(method, path, { token: stranger.token });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await readRequest(t, s.cashier, body.sale.id)).status).toBe('awaiting_payment');
    const none = await t.request('POST', '/payments/requests', { token: stranger.token, body: checkout(s) });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/^no mobile-money collection account/);
  });
});

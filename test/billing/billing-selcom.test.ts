/**
 * Paying a subscription through Selcom end to end: the real driver against a local fake of
 * Selcom's API gateway that checks every signature, its signed webhook posted over real HTTP to
 * our callback route, and the billing job asking Selcom when the webhook never came.
 */
import { CheckoutResult, CurrentSubscription, Envelope } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBillingJobs } from '../../server/src/modules/billing/services/billing-jobs.js';
import { SelcomFake } from '../fakes/selcom-fake.js';
import { e164, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

const MERCHANT = { apiKey: 'selcom-key-2b7f', apiSecret: 'selcom-secret-91ce', vendor: 'TILL61103' };

describe('subscriptions paid through Selcom', () => {
  let t: TestApp;
  let http: Listening;
  const selcom = new SelcomFake(MERCHANT);

  beforeAll(async () => {
    await selcom.start();
    t = await createTestApp({
      planLimits: true,
      config: {
        PAYMENT_PROVIDER: 'selcom',
        SELCOM_API_KEY: MERCHANT.apiKey,
        SELCOM_API_SECRET: MERCHANT.apiSecret,
        SELCOM_VENDOR: MERCHANT.vendor,
        SELCOM_URL: selcom.url,
        PUBLIC_URL: 'https://duka.example',
        PAYMENT_TIMEOUT_MS: 300,
      },
    });
    http = await listen(t);
    selcom.webhookOrigin = http.origin;
  });
  afterAll(async () => {
    await http.close();
    await selcom.stop();
    await t.close();
  });

  const current = async (s: Session) =>
    Envelope(CurrentSubscription).parse((await t.request('GET', '/subscriptions/current', { token: s.token })).body).data;
  const checkout = async (s: Session, phone: string) => {
    const res = await t.request('POST', '/subscriptions/checkout', {
      token: s.token,
      body: { plan_code: 'biashara', billing_cycle: 'monthly', phone, network: 'airtel' },
    });
    expect(res.status, res.text).toBe(202);
    return Envelope(CheckoutResult).parse(res.body).data;
  };

  it('creates a signed order and pushes it to the phone; the signed webhook pays once, a forged one is refused', async () => {
    const owner = await registerOwner(t);
    const phone = uniquePhone();
    const started = await checkout(owner, phone);
    expect(started.payment).toMatchObject({ status: 'pending', amount: 15000, provider: 'selcom' });
    const order = selcom.orders.get(started.payment!.id)!;
    expect(order).toMatchObject({
      amount: 15000,
      buyer_phone: e164(phone).slice(1),
      pushed_to: e164(phone).slice(1),
      webhook: 'https://duka.example/api/v1/subscriptions/callbacks/selcom',
    });

    expect(await selcom.webhook(order.order_id, 'COMPLETED', { forge: true })).toBe(401);
    expect((await current(owner)).plan.code).toBe('free');
    expect(await selcom.webhook(order.order_id)).toBe(200);
    expect(await selcom.webhook(order.order_id)).toBe(200);
    expect(await current(owner)).toMatchObject({ plan: { code: 'biashara' }, status: 'active' });
    const paid = await t.db.db
      .selectFrom('subscription_events')
      .select('id')
      .where('org_id', '=', owner.orgId)
      .where('kind', '=', 'payment.paid')
      .execute();
    expect(paid).toHaveLength(1);
  });

  it('a lost webhook: the billing job asks Selcom for the order after 5 minutes and applies its answer', async () => {
    const owner = await registerOwner(t);
    const started = await checkout(owner, uniquePhone());
    selcom.orders.get(started.payment!.id)!.payment_status = 'COMPLETED';
    await runBillingJobs(t.deps);
    expect((await current(owner)).plan.code).toBe('free');
    t.clock.advance(6 * 60_000);
    await runBillingJobs(t.deps);
    expect((await current(owner)).plan.code).toBe('biashara');
    const asked = selcom.requests.filter((r) => r.url.startsWith('/v1/checkout/order-status') && r.url.includes(started.payment!.id));
    expect(asked.length).toBeGreaterThanOrEqual(1);
  });

  it("a refused push fails the payment with Selcom's words", async () => {
    const owner = await registerOwner(t);
    selcom.next('ok', { reject: 'Subscriber not found' });
    const started = await checkout(owner, uniquePhone());
    expect(started.payment).toMatchObject({ status: 'failed' });
    const row = await t.db.db.selectFrom('payments').selectAll().where('id', '=', started.payment!.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).toContain('Selcom: Subscriber not found');
  });
});

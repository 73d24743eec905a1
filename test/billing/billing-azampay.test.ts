/**
 * Paying a subscription through AzamPay end to end: the real driver against a local fake of
 * AzamPay's authenticator and checkout, and its callback posted over real HTTP to our route.
 */
import { CheckoutResult, CurrentSubscription, Envelope } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzamPayFake } from '../fakes/azampay-fake.js';
import { e164, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';

const APP = { appName: 'duka', clientId: 'c3a1f7e2-duka', clientSecret: 'azam-secret-0b8e', apiKey: 'azam-api-key-9d41' };
const TOKEN = 'cb-token-6f1d2e0c9a8b7c6d5e4f';

describe('subscriptions paid through AzamPay', () => {
  let t: TestApp;
  let http: Listening;
  const azampay = new AzamPayFake(APP);

  beforeAll(async () => {
    await azampay.start();
    t = await createTestApp({
      planLimits: true,
      config: {
        PAYMENT_PROVIDER: 'azampay',
        AZAMPAY_APP_NAME: APP.appName,
        AZAMPAY_CLIENT_ID: APP.clientId,
        AZAMPAY_CLIENT_SECRET: APP.clientSecret,
        AZAMPAY_API_KEY: APP.apiKey,
        AZAMPAY_CALLBACK_TOKEN: TOKEN,
        AZAMPAY_AUTH_URL: azampay.url,
        AZAMPAY_CHECKOUT_URL: azampay.url,
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

  const callbackUrl = (token = TOKEN) => `${http.origin}/api/v1/subscriptions/callbacks/azampay?token=${token}`;
  const current = async (s: Session) =>
    Envelope(CurrentSubscription).parse((await t.request('GET', '/subscriptions/current', { token: s.token })).body).data;
  const checkout = async (s: Session, plan_code: string, phone: string, network = 'airtel') => {
    const res = await t.request('POST', '/subscriptions/checkout', {
      token: s.token,
      body: { plan_code, billing_cycle: 'monthly', phone, network },
    });
    expect(res.status, res.text).toBe(202);
    return Envelope(CheckoutResult).parse(res.body).data;
  };
  const paidEvents = async (orgId: string) =>
    (await t.db.db.selectFrom('subscription_events').select('id').where('org_id', '=', orgId).where('kind', '=', 'payment.paid').execute())
      .length;

  it('an upgrade is pushed to the phone, paid by the callback, and the limits rise; a duplicated callback pays once, a forged one is refused', async () => {
    const owner = await registerOwner(t);
    expect((await t.request('POST', '/stores', { token: owner.token, body: { name: 'Kariakoo Branch' } })).status).toBe(402);
    const phone = uniquePhone();
    const started = await checkout(owner, 'biashara', phone);
    expect(started.payment).toMatchObject({ status: 'pending', amount: 15000, provider: 'azampay' });

    const push = azampay.pushes.at(-1)!;
    expect(push).toMatchObject({
      accountNumber: e164(phone).slice(1),
      amount: '15000',
      provider: 'Airtel',
      externalId: started.payment!.id,
    });
    const sent = azampay.requests.at(-1)!;
    expect(sent.headers['x-api-key']).toBe(APP.apiKey);
    expect(sent.headers.authorization).toBe(`Bearer ${azampay.tokensIssued.at(-1)}`);
    expect(JSON.parse(sent.body)).toMatchObject({ currency: 'TZS' });
    expect((await current(owner)).plan.code).toBe('free');

    expect(await azampay.pay(push, callbackUrl('x'.repeat(TOKEN.length)))).toBe(401);
    expect((await current(owner)).plan.code).toBe('free');

    expect(await azampay.pay(push, callbackUrl())).toBe(200);
    expect(await azampay.pay(push, callbackUrl())).toBe(200);
    const after = await current(owner);
    expect(after).toMatchObject({ plan: { code: 'biashara' }, status: 'active' });
    expect(after.usage.find((u) => u.limit === 'stores')).toEqual({ limit: 'stores', used: 1, max: 3 });
    expect(await paidEvents(owner.orgId)).toBe(1);
    expect((await t.request('POST', '/stores', { token: owner.token, body: { name: 'Kariakoo Branch' } })).status).toBe(200);
    const invoices = await t.request('GET', '/subscriptions/invoices', { token: owner.token });
    expect(invoices.body.data).toMatchObject([{ plan_code: 'biashara', amount: 15000, status: 'paid' }]);
  });

  it('keeps its token between pushes, takes a new one when AzamPay revokes it, and records a refusal and a failed payment in their words', async () => {
    const owner = await registerOwner(t);
    const issued = azampay.tokensIssued.length;
    await checkout(owner, 'biashara', uniquePhone(), 'mpesa');
    expect(azampay.pushes.at(-1)!.provider).toBe('Mpesa');
    expect(azampay.tokensIssued.length).toBe(issued === 0 ? 1 : issued);

    azampay.revoked.add(azampay.tokensIssued.at(-1)!);
    const before = azampay.tokensIssued.length;
    const again = await checkout(owner, 'biashara', uniquePhone(), 'tigo');
    expect(again.payment).toMatchObject({ status: 'pending' });
    expect(azampay.tokensIssued.length).toBe(before + 1);
    expect(azampay.pushes.at(-1)!.provider).toBe('Tigo');

    azampay.next({ reject: 'Invalid phone number' });
    const refused = await checkout(owner, 'biashara', uniquePhone(), 'halopesa');
    expect(refused.payment).toMatchObject({ status: 'failed' });
    const row = await t.db.db.selectFrom('payments').selectAll().where('id', '=', refused.payment!.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).toContain('AzamPay: Invalid phone number');

    const last = azampay.pushes.at(-1)!;
    expect(await azampay.pay(last, callbackUrl(), 'failure')).toBe(200);
    expect((await current(owner)).plan.code).toBe('free');
    const failed = await t.db.db.selectFrom('payments').select('status').where('id', '=', last.externalId).executeTakeFirstOrThrow();
    expect(failed.status).toBe('failed');
  });

  it('a push AzamPay never answers is failed as transient, and nothing is paid', async () => {
    const owner = await registerOwner(t);
    azampay.next('hang');
    const started = await checkout(owner, 'biashara', uniquePhone());
    expect(started.payment).toMatchObject({ status: 'failed' });
    const row = await t.db.db.selectFrom('payments').selectAll().where('id', '=', started.payment!.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).toContain('no answer within 300 ms');
    expect((await current(owner)).plan.code).toBe('free');
  });
});

/** Checkout → callback → plan and limits rise; duplicated, late, wrong-amount and forged callbacks; prorated upgrade; downgrade waits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutResult, CurrentSubscription, Envelope } from '@duka/shared';
import { PaymentRejected } from '../../server/src/mobile-money/provider.js';
import { runBillingJobs } from '../../server/src/modules/billing/services/billing-jobs.js';
import { e164, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { CALLBACK_SECRET, callbackBody, FakePayments } from '../setup/fake-payments.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const DAY = 86_400_000;
const START = Date.parse('2027-04-01T06:00:00Z');

describe('billing: checkout and payment', () => {
  let t: TestApp;
  let pay: FakePayments;
  beforeAll(async () => {
    t = await createTestApp({ planLimits: true });
    pay = new FakePayments();
    t.deps.subscriptionPayments = pay;
  });
  afterAll(() => t.close());

  const setClock = (ms: number) => t.clock.advance(ms - t.clock.now());
  const login = async (s: Session) => {
    const res = await t.request('POST', '/auth/login', { body: { identifier: s.phone, password: s.password } });
    expect(res.status, res.text).toBe(200);
    s.token = res.body.data.access_token;
  };
  const current = async (s: Session) => {
    const res = await t.request('GET', '/subscriptions/current', { token: s.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(CurrentSubscription).parse(res.body).data;
  };
  const checkout = async (s: Session, plan_code: string, billing_cycle = 'monthly', phone = uniquePhone()) => {
    const res = await t.request('POST', '/subscriptions/checkout', {
      token: s.token,
      body: { plan_code, billing_cycle, phone, network: 'airtel' },
    });
    expect(res.status, res.text).toBe(202);
    return Envelope(CheckoutResult).parse(res.body).data;
  };
  const callback = (body: string, secret = CALLBACK_SECRET) =>
    t.request('POST', '/subscriptions/callbacks/fakepay', {
      raw: body,
      headers: { 'content-type': 'application/json', 'x-fake-secret': secret },
    });
  const limit = (c: CurrentSubscription, name: string) => c.usage.find((u) => u.limit === name);
  const events = async (orgId: string, kind: string) =>
    (await t.db.db.selectFrom('subscription_events').select('id').where('org_id', '=', orgId).where('kind', '=', kind).execute()).length;

  it('a new organisation is on free; checkout pushes 15,000 to the phone; the paid callback raises the plan and its limits, once', async () => {
    setClock(START);
    const owner = await registerOwner(t);
    const row = await t.db.db
      .selectFrom('subscriptions')
      .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
      .select(['plans.code', 'subscriptions.status', 'subscriptions.price'])
      .where('org_id', '=', owner.orgId)
      .executeTakeFirst();
    expect(row && { ...row, price: Number(row.price) }).toEqual({ code: 'free', status: 'active', price: 0 });
    const before = await current(owner);
    expect(before).toMatchObject({
      plan: { code: 'free' },
      status: 'active',
      billing_cycle: null,
      current_period_end: null,
      scheduled_change: null,
    });
    expect(limit(before, 'stores')).toEqual({ limit: 'stores', used: 1, max: 1 });
    expect(limit(before, 'products')).toEqual({ limit: 'products', used: 0, max: 500 });

    const phone = uniquePhone();
    const started = await checkout(owner, 'biashara', 'monthly', phone);
    expect(started).toMatchObject({
      change: 'started',
      invoice: { kind: 'new', plan_code: 'biashara', amount: 15000, status: 'open', period_start: null },
      payment: { status: 'pending', amount: 15000, phone: e164(phone), network: 'airtel', provider: 'fakepay' },
    });
    expect(pay.last()).toMatchObject({ reference: started.payment!.id, amountTzs: 15000, phone: e164(phone).slice(1), network: 'airtel' });
    // Nothing changes before the money arrives.
    expect((await current(owner)).plan.code).toBe('free');

    expect((await callback(callbackBody(pay.last()), 'wrong')).status).toBe(401);
    expect((await current(owner)).plan.code).toBe('free');

    const paid = await callback(callbackBody(pay.last()));
    expect(paid.status, paid.text).toBe(200);
    const after = await current(owner);
    expect(after).toMatchObject({
      plan: { code: 'biashara' },
      status: 'active',
      billing_cycle: 'monthly',
      current_period_start: new Date(START).toISOString(),
      current_period_end: '2027-05-01T06:00:00.000Z',
    });
    expect(limit(after, 'stores')).toEqual({ limit: 'stores', used: 1, max: 3 });
    expect(limit(after, 'ai_credits')).toEqual({ limit: 'ai_credits', used: 0, max: 500 });

    // The same callback again, and once more later: paid once, applied once.
    expect((await callback(callbackBody(pay.last()))).status).toBe(200);
    t.clock.advance(60_000);
    expect((await callback(callbackBody(pay.last()))).status).toBe(200);
    expect(await events(owner.orgId, 'payment.paid')).toBe(1);
    expect(await events(owner.orgId, 'subscription.changed')).toBe(1);
    expect((await current(owner)).current_period_start).toBe(new Date(START).toISOString());
    const invoices = await t.request('GET', '/subscriptions/invoices', { token: owner.token });
    expect(invoices.body.data).toMatchObject([{ kind: 'new', amount: 15000, status: 'paid', period_start: null }]);
    expect(invoices.body.meta).toMatchObject({ total: 1, page: 1 });
  });

  it('an upgrade on day 10 (+1 h) of 30 charges exactly 16,667 and applies in the running period; a downgrade waits for the period end', async () => {
    setClock(START);
    const owner = await registerOwner(t);
    await checkout(owner, 'biashara');
    await callback(callbackBody(pay.last()));
    setClock(START + 10 * DAY + 3_600_000);
    await login(owner);
    const up = await checkout(owner, 'pro');
    expect(up.invoice).toMatchObject({
      kind: 'upgrade',
      amount: 16667,
      period_start: new Date(START).toISOString(),
      period_end: '2027-05-01T06:00:00.000Z',
    });
    expect(pay.last().amountTzs).toBe(16667);
    await callback(callbackBody(pay.last()));
    const onPro = await current(owner);
    expect(onPro).toMatchObject({ plan: { code: 'pro' }, current_period_end: '2027-05-01T06:00:00.000Z' });
    expect(limit(onPro, 'products')).toMatchObject({ max: null });

    const pushes = pay.pushes.length;
    const down = await checkout(owner, 'biashara');
    expect(down).toEqual({ change: 'scheduled', invoice: null, payment: null });
    expect(pay.pushes.length).toBe(pushes);
    expect(await current(owner)).toMatchObject({
      plan: { code: 'pro' },
      scheduled_change: { plan_code: 'biashara', billing_cycle: 'monthly', at: '2027-05-01T06:00:00.000Z' },
    });

    // At the period end the renewal is billed at biashara's price, and paying it moves the plan.
    setClock(Date.parse('2027-05-01T06:00:00Z'));
    await runBillingJobs(t.deps);
    await login(owner);
    expect(await current(owner)).toMatchObject({ plan: { code: 'pro' }, status: 'past_due' });
    expect(pay.last()).toMatchObject({ amountTzs: 15000 });
    await callback(callbackBody(pay.last()));
    expect(await current(owner)).toMatchObject({
      plan: { code: 'biashara' },
      status: 'active',
      current_period_start: '2027-05-01T06:00:00.000Z',
      current_period_end: '2027-06-01T06:00:00.000Z',
      scheduled_change: null,
    });
  });

  it('a wrong amount is recorded and not credited; a rejected push is failed with the provider words', async () => {
    setClock(START);
    const owner = await registerOwner(t);
    const started = await checkout(owner, 'biashara');
    expect((await callback(callbackBody(pay.last(), { amount: 1500 }))).status).toBe(200);
    const row = await t.db.db.selectFrom('payments').selectAll().where('id', '=', started.payment!.id).executeTakeFirstOrThrow();
    expect({ status: row.status, reported: Number(row.reported_amount), amount: Number(row.amount) }).toEqual({
      status: 'mismatch',
      reported: 150_000,
      amount: 1_500_000,
    });
    expect(row.detail).toBe('provider reported TZS 1,500, invoice is TZS 15,000');
    expect((await current(owner)).plan.code).toBe('free');

    pay.reject = new PaymentRejected('Insufficient balance', false);
    try {
      const failed = await checkout(owner, 'pro');
      expect(failed.payment).toMatchObject({ status: 'failed', detail: 'Insufficient balance' });
    } finally {
      pay.reject = null;
    }
  });

  it('a lost callback: the job asks the provider after 5 minutes and applies its answer once', async () => {
    setClock(START);
    const owner = await registerOwner(t);
    const started = await checkout(owner, 'biashara');
    const ref = started.payment!.id;
    await runBillingJobs(t.deps);
    expect(pay.queries).not.toContain(ref);
    t.clock.advance(5 * 60_000);
    pay.statuses.set(ref, { reference: ref, providerRef: 'FP-Q', outcome: 'paid', amountTzs: 15000, detail: 'Success' });
    await runBillingJobs(t.deps);
    await runBillingJobs(t.deps);
    expect(pay.queries.filter((q) => q === ref)).toEqual([ref]);
    await login(owner);
    expect((await current(owner)).plan.code).toBe('biashara');
    // The callback arriving late changes nothing.
    await callback(JSON.stringify({ reference: ref, transid: 'T', status: 'paid', amount: 15000 }));
    expect(await events(owner.orgId, 'subscription.changed')).toBe(1);
  });

  it('a retired plan cannot be checked out; free cannot be bought; staff cannot check out', async () => {
    setClock(START);
    const owner = await registerOwner(t);
    await t.db.db.updateTable('plans').set({ status: 'retired' }).where('code', '=', 'pro').execute();
    try {
      const res = await t.request('POST', '/subscriptions/checkout', {
        token: owner.token,
        body: { plan_code: 'pro', billing_cycle: 'monthly', phone: uniquePhone(), network: 'mpesa' },
      });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('the pro plan is retired; choose another plan');
      const plans = await t.request('GET', '/subscriptions/plans', { token: owner.token });
      expect(plans.body.data.map((p: { code: string }) => p.code)).toEqual(['free', 'biashara']);
    } finally {
      await t.db.db.updateTable('plans').set({ status: 'active' }).where('code', '=', 'pro').execute();
    }
    const free = await t.request('POST', '/subscriptions/checkout', {
      token: owner.token,
      body: { plan_code: 'free', billing_cycle: 'monthly', phone: uniquePhone(), network: 'mpesa' },
    });
    expect(free.status).toBe(409);
  });
});

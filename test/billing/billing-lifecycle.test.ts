/** Renewal unpaid → past_due (daily reminders) → suspended after 7 days, selling and sync going on; paying restores; cancel → free at period end. */
import { newId } from '@duka/shared';
import pino from 'pino';
import { createDeps } from '../../server/src/app.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBillingJobs } from '../../server/src/modules/billing/services/billing-jobs.js';
import { e164, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { CALLBACK_SECRET, callbackBody, FakePayments } from '../setup/fake-payments.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const START = Date.parse('2027-04-01T06:00:00Z');
const END = Date.parse('2027-05-01T06:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('billing: renewals, grace, suspension and cancellation', () => {
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
  const current = async (s: Session) => (await t.request('GET', '/subscriptions/current', { token: s.token })).body.data;
  const callback = (body: string) =>
    t.request('POST', '/subscriptions/callbacks/fakepay', {
      raw: body,
      headers: { 'content-type': 'application/json', 'x-fake-secret': CALLBACK_SECRET },
    });
  async function paidBiashara(payer = uniquePhone()) {
    setClock(START);
    const owner = await registerOwner(t);
    const res = await t.request('POST', '/subscriptions/checkout', {
      token: owner.token,
      body: { plan_code: 'biashara', billing_cycle: 'monthly', phone: payer, network: 'mpesa' },
    });
    expect(res.status, res.text).toBe(202);
    expect((await callback(callbackBody(pay.last()))).status).toBe(200);
    return owner;
  }
  /** Renewal reminders sent to `recipient` (phone or email): they name the invoice and the days left. */
  const reminders = async (recipient: string) =>
    (
      await t.db.db.selectFrom('outbox').select('body').where('recipient', '=', recipient).where('body', 'like', '%Pay INV-%').execute()
    ).map((m) => m.body);
  const product = (s: Session, name: string) =>
    t.request('POST', '/inventory/products', { token: s.token, body: { name, selling_price: 2000, stock: 50 } });

  it('an unpaid renewal: past_due with one reminder a day, suspended on day 7 while the till sells and syncs, active again when paid', async () => {
    const payer = uniquePhone();
    const owner = await paidBiashara(payer);
    const ids: string[] = [];
    for (const name of ['Sukari', 'Chumvi']) ids.push((await product(owner, name)).body.data.id);
    // Suspension holds the organisation to free's limits: a one-product free plan makes the 402 visible.
    await t.db.db.updateTable('plans').set({ max_products: 1 }).where('code', '=', 'free').execute();

    setClock(END);
    await runBillingJobs(t.deps);
    await login(owner);
    expect(await current(owner)).toMatchObject({
      status: 'past_due',
      plan: { code: 'biashara' },
      grace_ends_at: '2027-05-08T06:00:00.000Z',
    });
    expect(pay.last()).toMatchObject({ phone: e164(payer).slice(1), amountTzs: 15000, network: 'mpesa' });
    const renewal = pay.last();
    const invoices = (await t.request('GET', '/subscriptions/invoices', { token: owner.token })).body.data;
    expect(invoices[0]).toMatchObject({
      kind: 'renewal',
      amount: 15000,
      status: 'open',
      period_start: '2027-05-01T06:00:00.000Z',
      period_end: '2027-06-01T06:00:00.000Z',
    });
    const ownerPhone = e164(owner.phone);
    const first = await reminders(ownerPhone);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(
      /^Duka: lipa INV-20270501-[0-9A-F]{8} \(TZS 15,000\) ndani ya siku 7 ili usisimamishwe\. \/ Pay INV-20270501-[0-9A-F]{8} \(TZS 15,000\) within 7 days to avoid suspension\.$/,
    );
    expect(await reminders(owner.email)).toHaveLength(1);

    t.clock.advance(HOUR);
    await runBillingJobs(t.deps);
    expect(await reminders(ownerPhone)).toHaveLength(1);
    t.clock.advance(DAY);
    await runBillingJobs(t.deps);
    expect((await reminders(ownerPhone))[1]).toContain('within 6 days');
    await login(owner);
    expect((await product(owner, 'Mchele')).status).toBe(200);

    setClock(END + 7 * DAY);
    await runBillingJobs(t.deps);
    await login(owner);
    expect(await current(owner)).toMatchObject({ status: 'suspended', plan: { code: 'biashara' }, effective_plan_code: 'free' });
    const refused = await product(owner, 'Unga');
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe('your plan allows 1 products and 3 are used; the Business plan (biashara) lifts this limit');

    // Selling never stops: a sale online, and a till's offline sale pushed.
    const sale = await t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: ids[0], qty: 2 }], payment_method: 'Cash' },
    });
    expect(sale.status, sale.text).toBe(201);
    const device = await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: newId(), name: 'Till 1' } });
    expect(device.status, device.text).toBe(200);
    const pushed = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: {
        device_id: device.body.data.device_id,
        mutations: [
          {
            id: newId(),
            seq: 1,
            type: 'sale.create',
            created_at: new Date(t.clock.now() - HOUR).toISOString(),
            payload: {
              id: newId(),
              client_receipt_number: 'OFF-T1-1',
              lines: [{ product_id: ids[1], qty: 3, unit_price: 2000 }],
              payment_method: 'M-Pesa',
            },
          },
        ],
      },
    });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.data.results[0].status).toBe('applied');
    const sold = await t.db.db.selectFrom('transactions').select('id').where('org_id', '=', owner.orgId).execute();
    expect(sold).toHaveLength(2);

    // Paying the renewal (late) restores active for the period it was issued for.
    expect((await callback(callbackBody(renewal))).status).toBe(200);
    expect(await current(owner)).toMatchObject({
      status: 'active',
      plan: { code: 'biashara' },
      effective_plan_code: 'biashara',
      current_period_start: '2027-05-01T06:00:00.000Z',
      current_period_end: '2027-06-01T06:00:00.000Z',
      grace_ends_at: null,
    });
    expect((await product(owner, 'Unga')).status).toBe(200);
    const kinds = (
      await t.db.db
        .selectFrom('subscription_events')
        .select('kind')
        .where('org_id', '=', owner.orgId)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((e) => e.kind);
    expect(kinds).toEqual([
      'invoice.issued',
      'payment.paid',
      'subscription.changed',
      'invoice.issued',
      'reminder.sent',
      'reminder.sent',
      'subscription.suspended',
      'payment.paid',
      'subscription.changed',
    ]);
    await t.db.db.updateTable('plans').set({ max_products: 500 }).where('code', '=', 'free').execute();
  });

  it('cancel: stays on the plan until the period end, then free with no invoice; checking out again undoes it', async () => {
    const owner = await paidBiashara();
    const cancelled = await t.request('POST', '/subscriptions/cancel', { token: owner.token });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      plan: { code: 'biashara' },
      cancel_at_period_end: true,
      scheduled_change: { plan_code: 'free', at: '2027-05-01T06:00:00.000Z' },
    });
    const resumed = await t.request('POST', '/subscriptions/checkout', {
      token: owner.token,
      body: { plan_code: 'biashara', billing_cycle: 'monthly', phone: uniquePhone(), network: 'mpesa' },
    });
    expect(resumed.body.data).toEqual({ change: 'resumed', invoice: null, payment: null });
    expect((await current(owner)).cancel_at_period_end).toBe(false);
    await t.request('POST', '/subscriptions/cancel', { token: owner.token });

    const pushes = pay.pushes.length;
    setClock(END);
    await runBillingJobs(t.deps);
    await login(owner);
    expect(await current(owner)).toMatchObject({
      plan: { code: 'free' },
      status: 'active',
      billing_cycle: null,
      current_period_end: null,
      cancel_at_period_end: false,
      scheduled_change: null,
    });
    expect(pay.pushes.length).toBe(pushes);
    const invoices = (await t.request('GET', '/subscriptions/invoices', { token: owner.token })).body.data;
    expect(invoices.map((i: { kind: string }) => i.kind)).toEqual(['new']);
  });
  it('past due: checking out the same plan pays the open renewal; two job instances at once bill the period once', async () => {
    const owner = await paidBiashara();
    setClock(END);
    const second = createDeps(t.config, t.db, pino({ level: 'silent' }), t.clock);
    const other = Object.assign(second, { subscriptionPayments: pay });
    const pushes = pay.pushes.length;
    await Promise.all([runBillingJobs(t.deps), runBillingJobs(other), runBillingJobs(t.deps)]);
    const renewals = await t.db.db
      .selectFrom('invoices')
      .selectAll()
      .where('org_id', '=', owner.orgId)
      .where('kind', '=', 'renewal')
      .execute();
    expect(renewals).toHaveLength(1);
    expect(pay.pushes.length).toBe(pushes + 1);

    await login(owner);
    const payer = uniquePhone();
    const res = await t.request('POST', '/subscriptions/checkout', {
      token: owner.token,
      body: { plan_code: 'biashara', billing_cycle: 'monthly', phone: payer, network: 'azampesa' },
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.invoice).toMatchObject({ id: renewals[0]!.id, number: renewals[0]!.number, kind: 'renewal', amount: 15000 });
    expect(pay.last()).toMatchObject({ amountTzs: 15000, phone: e164(payer).slice(1), network: 'azampesa' });
    expect((await callback(callbackBody(pay.last()))).status).toBe(200);
    expect(await current(owner)).toMatchObject({
      status: 'active',
      current_period_start: '2027-05-01T06:00:00.000Z',
      current_period_end: '2027-06-01T06:00:00.000Z',
    });
    // The job's own push for the same invoice, paid later, is not applied again.
    await callback(callbackBody(pay.pushes[pushes]!));
    const row = await t.db.db
      .selectFrom('subscription_events')
      .select('kind')
      .where('org_id', '=', owner.orgId)
      .where('kind', '=', 'payment.unapplied')
      .execute();
    expect(row).toHaveLength(1);
    expect((await current(owner)).current_period_end).toBe('2027-06-01T06:00:00.000Z');
  });
});

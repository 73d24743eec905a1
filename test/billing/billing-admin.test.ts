/** Plans managed by MFA-signed-in platform admins (audited), prices for new periods only, /admin/subscriptions, MRR and churn. */
import { AdminAnalyticsOverview, AdminSubscription, Envelope, PagedEnvelope, Plan } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBillingJobs } from '../../server/src/modules/billing/services/billing-jobs.js';
import { mfaAdminToken, registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { CALLBACK_SECRET, callbackBody, FakePayments } from '../setup/fake-payments.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const START = Date.parse('2027-04-01T06:00:00Z');
const END = Date.parse('2027-05-01T06:00:00Z');
const DAY = 86_400_000;

function harness() {
  const h = {} as { t: TestApp; pay: FakePayments };
  beforeAll(async () => {
    h.t = await createTestApp({ planLimits: true });
    h.pay = new FakePayments();
    h.t.deps.subscriptionPayments = h.pay;
  });
  afterAll(() => h.t.close());
  return h;
}

async function subscribe(h: { t: TestApp; pay: FakePayments }, owner: Session, plan_code: string, billing_cycle = 'monthly') {
  const res = await h.t.request('POST', '/subscriptions/checkout', {
    token: owner.token,
    body: { plan_code, billing_cycle, phone: uniquePhone(), network: 'halopesa' },
  });
  expect(res.status, res.text).toBe(202);
  const cb = await h.t.request('POST', '/subscriptions/callbacks/fakepay', {
    raw: callbackBody(h.pay.last()),
    headers: { 'content-type': 'application/json', 'x-fake-secret': CALLBACK_SECRET },
  });
  expect(cb.status).toBe(200);
}

describe('billing: plans under /subscriptions/admin/plans', () => {
  const h = harness();
  const setClock = (ms: number) => h.t.clock.advance(ms - h.t.clock.now());

  it('only an admin signed in with MFA manages plans; each change is audited; a new price waits for the next period; a retired plan cannot be chosen', async () => {
    setClock(START);
    const { t } = h;
    const owner = await registerOwner(t);
    const admin = await mfaAdminToken(t);
    // An owner and an admin without MFA (403): test/api/access-rules.test.ts.
    const list = Envelope(z.array(Plan)).parse((await t.request('GET', '/subscriptions/admin/plans', { token: admin.token })).body).data;
    expect(
      list.map((p) => [
        p.code,
        p.price_monthly,
        p.price_yearly,
        p.max_stores,
        p.max_staff,
        p.max_products,
        p.ai_credits_monthly,
        p.sms_monthly,
      ]),
    ).toEqual([
      ['free', 0, 0, 1, 2, 500, 100, 50],
      ['biashara', 15000, 150000, 3, 10, 5000, 500, 500],
      ['pro', 40000, 400000, 10, 50, null, 2000, 2000],
    ]);

    const body = {
      code: 'plus',
      name_en: 'Plus',
      name_sw: 'Zaidi',
      price_monthly: 25000,
      price_yearly: 250000,
      max_stores: 5,
      max_staff: 15,
      max_products: 10000,
      ai_credits_monthly: 1000,
      sms_monthly: null,
      features: ['scheduled_email_reports'],
    };
    const created = await t.request('POST', '/subscriptions/admin/plans', { token: admin.token, body });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ ...body, status: 'active' });
    expect((await t.request('POST', '/subscriptions/admin/plans', { token: admin.token, body })).body.errors[0]).toMatchObject({
      code: 'DUPLICATE',
      field: 'code',
    });
    expect((await t.request('POST', '/subscriptions/admin/plans', { token: admin.token, body: { ...body, code: 'Plus' } })).status).toBe(
      400,
    );
    expect(
      (
        await t.request('POST', '/subscriptions/admin/plans', {
          token: admin.token,
          body: { ...body, code: 'cents', price_monthly: 100.5 },
        })
      ).status,
    ).toBe(400);

    await subscribe(h, owner, 'biashara');
    const biashara = list.find((p) => p.code === 'biashara')!;
    const raised = await t.request('PATCH', `/subscriptions/admin/plans/${biashara.id}`, {
      token: admin.token,
      body: { price_monthly: 18000 },
    });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body.data.price_monthly).toBe(18000);
    // The paid invoice keeps its amount; the renewal is billed at the new price.
    expect(
      (await t.request('GET', '/subscriptions/invoices', { token: owner.token })).body.data.map((i: { amount: number }) => i.amount),
    ).toEqual([15000]);

    const plus = created.body.data.id as string;
    const retired = await t.request('POST', `/subscriptions/admin/plans/${plus}/retire`, { token: admin.token });
    expect(retired.body.data.status).toBe('retired');
    expect((await t.request('GET', '/subscriptions/plans', { token: owner.token })).body.data.map((p: { code: string }) => p.code)).toEqual(
      ['free', 'biashara', 'pro'],
    );
    const free = list.find((p) => p.code === 'free')!;
    expect((await t.request('POST', `/subscriptions/admin/plans/${free.id}/retire`, { token: admin.token })).status).toBe(409);

    const audit = await t.db.db
      .selectFrom('audit_log')
      .select(['action', 'description', 'user_id'])
      .where('entity', '=', 'plan')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'plan.create', description: 'Created plan plus at TZS 25000/month, 250000/year', user_id: admin.userId },
      { action: 'plan.update', description: 'Changed plan biashara: price_monthly', user_id: admin.userId },
      { action: 'plan.retire', description: 'Retired plan plus', user_id: admin.userId },
    ]);

    // (The admin's sign-in moved the clock 30 s: the period ends just after END.)
    setClock(END + DAY);
    await runBillingJobs(t.deps);
    expect(h.pay.last().amountTzs).toBe(18000);
  });
});

describe('billing: /admin/subscriptions, MRR and churn', () => {
  const h = harness();
  const setClock = (ms: number) => h.t.clock.advance(ms - h.t.clock.now());
  const overview = async () => {
    const admin = await mfaAdminToken(h.t);
    const res = await h.t.request('GET', '/admin/analytics/overview', { token: admin.token });
    expect(res.status, res.text).toBe(200);
    return Envelope(AdminAnalyticsOverview).parse(res.body).data.subscriptions;
  };

  it('three paid, one cancelled, one unpaid into suspension: exact MRR and churn at each step', async () => {
    setClock(START);
    const [a, b, c] = [await registerOwner(t()), await registerOwner(t()), await registerOwner(t())];
    await registerOwner(t()); // d stays free
    await subscribe(h, a, 'biashara');
    await subscribe(h, b, 'pro', 'yearly');
    await subscribe(h, c, 'biashara');
    expect(await overview()).toEqual({
      mrr: 15000 + 33333.33 + 15000,
      paying_organisations: 3,
      paid_at_start: 0,
      churned: 0,
      churn_rate: 0,
    });

    expect((await h.t.request('POST', '/subscriptions/cancel', { token: c.token })).status).toBe(200);
    const admin = await mfaAdminToken(h.t);
    const subs = PagedEnvelope(AdminSubscription).parse(
      (await h.t.request('GET', `/admin/subscriptions?org_id=${b.orgId}`, { token: admin.token })).body,
    ).data;
    expect(subs).toEqual([
      {
        org_id: b.orgId,
        organisation_name: 'Mama Asha Duka',
        plan: 'pro',
        status: 'active',
        subscription_status: 'active',
        ai_credits_monthly: 2000,
        ai_credits_custom: false,
        since: new Date(START).toISOString(),
        billing: {
          billing_cycle: 'yearly',
          price: 400000,
          monthly_equivalent: 33333.33,
          current_period_end: '2028-04-01T06:00:00.000Z',
          cancel_at_period_end: false,
          last_payment: { status: 'paid', amount: 400000, at: new Date(START).toISOString(), detail: null },
        },
      },
    ]);

    const detail = await h.t.request('GET', `/admin/organisations/${b.orgId}`, { token: admin.token });
    expect(detail.body.data).toMatchObject({ plan: 'pro', ai_credits: { allocated: 2000 } });

    // Period end: a's renewal is unpaid (past_due: not revenue), c goes back to free (churned).
    setClock(END);
    await runBillingJobs(h.t.deps);
    expect(await overview()).toEqual({ mrr: 33333.33, paying_organisations: 1, paid_at_start: 3, churned: 1, churn_rate: 33.33 });

    // A week later a is suspended: churned too.
    setClock(END + 7 * DAY);
    await runBillingJobs(h.t.deps);
    expect(await overview()).toEqual({ mrr: 33333.33, paying_organisations: 1, paid_at_start: 3, churned: 2, churn_rate: 66.67 });
    const listed = (await h.t.request('GET', '/admin/subscriptions', { token: (await mfaAdminToken(h.t)).token })).body.data as Array<{
      org_id: string;
      plan: string;
      subscription_status: string;
    }>;
    const byOrg = (s: Session) => listed.find((x) => x.org_id === s.orgId);
    expect([byOrg(a), byOrg(b), byOrg(c)].map((x) => [x?.plan, x?.subscription_status])).toEqual([
      ['biashara', 'suspended'],
      ['pro', 'active'],
      ['free', 'active'],
    ]);

    const historian = await mfaAdminToken(h.t);
    const history = await h.t.request('GET', `/subscriptions/admin/history?org_id=${a.orgId}`, { token: historian.token });
    expect(history.status, history.text).toBe(200);
    expect(history.body.meta.total).toBe(6);
    expect(history.body.data.map((e: { kind: string; to_status: string | null }) => [e.kind, e.to_status])).toEqual([
      ['subscription.suspended', 'suspended'],
      ['reminder.sent', null],
      ['invoice.issued', 'past_due'],
      ['subscription.changed', 'active'],
      ['payment.paid', null],
      ['invoice.issued', null],
    ]);
  });

  const t = () => h.t;
});

describe('billing: OpenAPI', () => {
  const h = harness();
  it('documents every subscription route', async () => {
    const doc = (await h.t.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/subscriptions'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(routes).toEqual([
      'GET /subscriptions/admin/history',
      'GET /subscriptions/admin/plans',
      'GET /subscriptions/current',
      'GET /subscriptions/invoices',
      'GET /subscriptions/plans',
      'PATCH /subscriptions/admin/plans/{id}',
      'POST /subscriptions/admin/plans',
      'POST /subscriptions/admin/plans/{id}/retire',
      'POST /subscriptions/callbacks/{provider}',
      'POST /subscriptions/cancel',
      'POST /subscriptions/checkout',
    ]);
  });
});

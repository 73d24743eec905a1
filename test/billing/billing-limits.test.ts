/** 402 PLAN_LIMIT on creating a store, a staff member, a product; raised by a paid plan. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, uniquePhone } from '../setup/factories.js';
import { callbackBody, CALLBACK_SECRET, FakePayments } from '../setup/fake-payments.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('billing: plan limits answer 402 PLAN_LIMIT', () => {
  let t: TestApp;
  let pay: FakePayments;
  beforeAll(async () => {
    t = await createTestApp({ planLimits: true });
    pay = new FakePayments();
    t.deps.subscriptionPayments = pay;
    // A smaller free plan keeps the test short; the rule is the same at 500.
    await t.db.db.updateTable('plans').set({ max_products: 2 }).where('code', '=', 'free').execute();
  });
  afterAll(() => t.close());

  it('free: a second store, a third staff member and a third product are refused with the plan that lifts each; after paying they are allowed', async () => {
    const owner = await registerOwner(t);
    const store = await t.request('POST', '/stores', { token: owner.token, body: { name: 'Kariakoo Branch' } });
    expect(store.status).toBe(402);
    expect(store.body).toMatchObject({
      success: false,
      message: 'your plan allows 1 stores and 1 are used; the Business plan (biashara) lifts this limit',
      errors: [
        {
          code: 'PLAN_LIMIT',
          field: 'stores',
          message: 'your plan allows 1 stores and 1 are used; the Business plan (biashara) lifts this limit',
        },
      ],
      meta: { limit: 'stores', max: 1, used: 1, plan: 'biashara' },
    });
    expect(await t.db.db.selectFrom('stores').select('id').where('org_id', '=', owner.orgId).execute()).toHaveLength(1);

    const first = await createStaff(t, owner);
    await createStaff(t, owner);
    const third = await t.request('POST', '/accounts/users', {
      token: owner.token,
      body: { first_name: 'Neema', last_name: 'Ali', phone: uniquePhone(), role: 'staff' },
    });
    expect(third.status).toBe(402);
    expect(third.body.message).toBe('your plan allows 2 staff members and 2 are used; the Business plan (biashara) lifts this limit');

    // Giving a deactivated account back counts as hiring.
    expect((await t.request('DELETE', `/staff/${first.user.id}`, { token: owner.token })).status).toBe(200);
    await createStaff(t, owner);
    const back = await t.request('PATCH', `/staff/${first.user.id}`, { token: owner.token, body: { employment_status: 'active' } });
    expect(back.status).toBe(402);
    expect(back.body.errors[0]).toMatchObject({ code: 'PLAN_LIMIT', field: 'staff' });

    for (const name of ['Sukari', 'Chumvi'])
      expect((await t.request('POST', '/inventory/products', { token: owner.token, body: { name, selling_price: 1000 } })).status).toBe(
        200,
      );
    const product = await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Mchele', selling_price: 2500 } });
    expect(product.status).toBe(402);
    expect(product.body.errors[0]).toMatchObject({ code: 'PLAN_LIMIT', field: 'products' });
    expect(product.body.message).toBe('your plan allows 2 products and 2 are used; the Business plan (biashara) lifts this limit');

    const checkout = await t.request('POST', '/subscriptions/checkout', {
      token: owner.token,
      body: { plan_code: 'biashara', billing_cycle: 'yearly', phone: uniquePhone(), network: 'tigo' },
    });
    expect(checkout.status, checkout.text).toBe(202);
    expect(checkout.body.data.invoice).toMatchObject({ amount: 150000, billing_cycle: 'yearly' });
    const cb = await t.request('POST', '/subscriptions/callbacks/fakepay', {
      raw: callbackBody(pay.last()),
      headers: { 'content-type': 'application/json', 'x-fake-secret': CALLBACK_SECRET },
    });
    expect(cb.status).toBe(200);

    expect((await t.request('POST', '/stores', { token: owner.token, body: { name: 'Kariakoo Branch' } })).status).toBe(200);
    expect(
      (await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Mchele', selling_price: 2500 } })).status,
    ).toBe(200);
    const usage = (await t.request('GET', '/subscriptions/current', { token: owner.token })).body.data.usage;
    expect(usage).toEqual([
      { limit: 'stores', used: 2, max: 3 },
      { limit: 'staff', used: 2, max: 10 },
      { limit: 'products', used: 3, max: 5000 },
      { limit: 'ai_credits', used: 0, max: 500 },
      // The staff members' temporary passwords went out by SMS, but only messages to customers count.
      { limit: 'sms', used: 0, max: 500 },
    ]);
  });
});

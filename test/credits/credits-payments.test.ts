import { CreditPayment, Envelope } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCreditSale, registerOwner, type Session, createStaff } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('credits: payments allocated oldest tab first', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const newCustomer = async (s: Session, name = 'Mussa Juma') => {
    const res = await t.request('POST', '/customers', { token: s.token, body: { name } });
    expect(res.status, res.text).toBe(200);
    return res.body.data.id as string;
  };
  /** Tabs created one second apart, oldest first, in the order given. */
  const tabsOf = async (s: Session, customerId: string, totals: number[]) => {
    const start = t.clock.now() - totals.length * 1000;
    const out: string[] = [];
    for (const [i, total] of totals.entries())
      out.push((await insertCreditSale(t, { orgId: s.orgId, storeId: s.storeId, customerId, total, at: start + i * 1000 })).tabId);
    return out;
  };
  const pay = (s: { token: string }, customerId: string, body: Record<string, unknown>) =>
    t.request('POST', `/credits/customers/${customerId}/payments`, { token: s.token, body: { method: 'M-Pesa', ...body } });
  const tabRows = (ids: string[]) =>
    Promise.all(
      ids.map((id) =>
        t.db.db.selectFrom('credit_tabs').select(['status', 'paid_amount', 'settled_at']).where('id', '=', id).executeTakeFirstOrThrow(),
      ),
    );
  const owed = async (s: Session, customerId: string) =>
    (await t.request('GET', `/credits/customers/${customerId}`, { token: s.token })).body.data.total_outstanding;
  const paymentCount = async (customerId: string) =>
    (await t.db.db.selectFrom('credit_payments').select('id').where('customer_id', '=', customerId).execute()).length;

  it('settles three tabs in order: 12,000 then 5,500 against 10,000 / 5,000 / 2,500', async () => {
    const owner = await registerOwner(t);
    const customer = await newCustomer(owner);
    const [first, second, third] = await tabsOf(owner, customer, [10_000, 5_000, 2_500]);

    const res = await pay(owner, customer, { amount: 12_000, reference: 'QK7H2L9XYZ', note: 'Part payment' });
    expect(res.status, res.text).toBe(200);
    const payment = Envelope(CreditPayment).parse(res.body).data;
    expect(payment).toMatchObject({
      customer_id: customer,
      store_id: owner.storeId,
      amount: 12_000,
      method: 'M-Pesa',
      reference: 'QK7H2L9XYZ',
      note: 'Part payment',
      received_by: owner.userId,
      allocations: [
        { tab_id: first, amount: 10_000 },
        { tab_id: second, amount: 2_000 },
      ],
    });
    const now = t.clock.now();
    expect(await tabRows([first!, second!, third!])).toEqual([
      { status: 'settled', paid_amount: 1_000_000, settled_at: now },
      { status: 'partially_paid', paid_amount: 200_000, settled_at: null },
      { status: 'open', paid_amount: 0, settled_at: null },
    ]);
    expect(await owed(owner, customer)).toBe(5_500);

    const rest = await pay(owner, customer, { amount: 5_500, method: 'Cash' });
    expect(rest.body.data.allocations).toEqual([
      { tab_id: second, amount: 3_000 },
      { tab_id: third, amount: 2_500 },
    ]);
    expect((await tabRows([first!, second!, third!])).map((r) => [r.status, r.paid_amount])).toEqual([
      ['settled', 1_000_000],
      ['settled', 500_000],
      ['settled', 250_000],
    ]);
    expect(await owed(owner, customer)).toBe(0);
    const listed = (await t.request('GET', `/credits?customer_id=${customer}`, { token: owner.token })).body.data;
    expect(
      listed.map((x: { status: string; balance: number; settled_at: string | null }) => [x.status, x.balance, x.settled_at !== null]),
    ).toEqual([
      ['settled', 0, true],
      ['settled', 0, true],
      ['settled', 0, true],
    ]);
    const profile = (await t.request('GET', `/credits/customers/${customer}`, { token: owner.token })).body.data;
    expect(profile.payments.map((p: CreditPayment) => p.amount)).toEqual([5_500, 12_000]);

    const log = await t.db.db
      .selectFrom('change_log')
      .select(['entity', 'entity_id'])
      .where('org_id', '=', owner.orgId)
      .where('entity', 'in', ['credit_tab', 'customer'])
      .orderBy('version')
      .execute();
    expect(log.slice(-6)).toEqual([
      { entity: 'credit_tab', entity_id: first },
      { entity: 'credit_tab', entity_id: second },
      { entity: 'customer', entity_id: customer },
      { entity: 'credit_tab', entity_id: second },
      { entity: 'credit_tab', entity_id: third },
      { entity: 'customer', entity_id: customer },
    ]);
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', customer)
      .where('action', '=', 'credit.payment')
      .execute();
    expect(audit).toHaveLength(2);
  });

  it('refuses a payment above what is owed (422 OVERPAYMENT) and writes nothing', async () => {
    const owner = await registerOwner(t);
    const customer = await newCustomer(owner);
    const tabs = await tabsOf(owner, customer, [3_000, 2_000]);
    const before = await tabRows(tabs);
    const versionBefore = (
      await t.db.db.selectFrom('organisations').select('version').where('id', '=', owner.orgId).executeTakeFirstOrThrow()
    ).version;

    const res = await pay(owner, customer, { amount: 5_000.01 });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 'OVERPAYMENT', field: 'amount' });
    expect(res.body.message).toContain('TZS 5000');
    expect(await tabRows(tabs)).toEqual(before);
    expect(await paymentCount(customer)).toBe(0);
    expect(await t.db.db.selectFrom('credit_allocations').select('tab_id').where('tab_id', 'in', tabs).execute()).toEqual([]);
    expect(
      (await t.db.db.selectFrom('organisations').select('version').where('id', '=', owner.orgId).executeTakeFirstOrThrow()).version,
    ).toBe(versionBefore);

    expect((await pay(owner, customer, { amount: 5_000 })).status).toBe(200);
    const nothingOwed = await pay(owner, customer, { amount: 1 });
    expect(nothingOwed.status).toBe(422);
    expect(nothingOwed.body.errors[0].code).toBe('OVERPAYMENT');
  });

  it('validates amount and method (400 naming the field)', async () => {
    const owner = await registerOwner(t);
    const customer = await newCustomer(owner);
    await tabsOf(owner, customer, [1_000]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 0 }, 'amount'],
      [{ amount: -50 }, 'amount'],
      [{ amount: 10.005 }, 'amount'],
      [{ amount: '100' }, 'amount'],
      [{ amount: 100, method: 'Credit' }, 'method'],
      [{ amount: 100, method: undefined }, 'method'],
    ];
    for (const [body, field] of cases) {
      const res = await pay(owner, customer, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].field, JSON.stringify(body)).toBe(field);
    }
    expect(await paymentCount(customer)).toBe(0);
    const cents = await pay(owner, customer, { amount: 999.99, method: 'Tigo Pesa' });
    expect(cents.body.data).toMatchObject({ amount: 999.99, method: 'Tigo Pesa', allocations: [{ amount: 999.99 }] });
    expect(await owed(owner, customer)).toBe(0.01);
  });

  it('skips written-off tabs and lets staff take payments', async () => {
    const owner = await registerOwner(t);
    const staff = await createStaff(t, owner);
    const customer = await newCustomer(owner);
    const [gone, kept] = await tabsOf(owner, customer, [4_000, 1_000]);
    expect((await t.request('POST', `/credits/${gone}/write-off`, { token: owner.token, body: { reason: 'disputed' } })).status).toBe(200);
    expect((await pay(staff, customer, { amount: 1_500 })).status).toBe(422);
    const res = await pay(staff, customer, { amount: 1_000 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ received_by: staff.user.id, allocations: [{ tab_id: kept, amount: 1_000 }] });
    expect((await tabRows([gone!])).map((r) => r.status)).toEqual(['written_off']);
  });

  it('accepts exactly one of two concurrent payments that together exceed the balance', async () => {
    const owner = await registerOwner(t);
    const customer = await newCustomer(owner);
    const tabs = await tabsOf(owner, customer, [6_000, 4_000]);
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([pay(owner, customer, { amount: 6_000 }), pay(owner, customer, { amount: 6_000 })]);
      if (round === 0) {
        expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
        expect(results.find((r) => r.status === 422)!.body.errors[0].code).toBe('OVERPAYMENT');
      } else {
        expect(results.map((r) => r.status)).toEqual([422, 422]);
      }
    }
    expect(await owed(owner, customer)).toBe(4_000);
    expect(await paymentCount(customer)).toBe(1);
    expect((await tabRows(tabs)).map((r) => [r.status, r.paid_amount])).toEqual([
      ['settled', 600_000],
      ['open', 0],
    ]);
    const [a, b] = await Promise.all([pay(owner, customer, { amount: 2_500 }), pay(owner, customer, { amount: 2_500 })]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    expect(await owed(owner, customer)).toBe(1_500);
  });

  it('replays a payment retried with the same Idempotency-Key instead of paying twice', async () => {
    const owner = await registerOwner(t);
    const customer = await newCustomer(owner);
    await tabsOf(owner, customer, [10_000]);
    const send = (body: Record<string, unknown>, key: string) =>
      t.request('POST', `/credits/customers/${customer}/payments`, {
        token: owner.token,
        body: { method: 'Cash', ...body },
        headers: { 'idempotency-key': key },
      });
    const first = await send({ amount: 2_000 }, 'till-1-payment-7');
    const retry = await send({ amount: 2_000 }, 'till-1-payment-7');
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    expect(await paymentCount(customer)).toBe(1);
    const other = await send({ amount: 3_000 }, 'till-1-payment-7');
    expect(other.status).toBe(422);
    expect(other.body.errors[0].code).toBe('IDEMPOTENCY_MISMATCH');
    const refused = await send({ amount: 50_000 }, 'till-1-payment-8');
    expect(refused.body.errors[0].code).toBe('OVERPAYMENT');
    expect((await send({ amount: 8_000 }, 'till-1-payment-8')).status).toBe(200);
    expect(await owed(owner, customer)).toBe(0);
  });

  it('answers 404 for an unknown customer and 400 for a malformed id', async () => {
    const owner = await registerOwner(t);
    expect((await pay(owner, '0190f5a4-0000-7000-8000-000000000000', { amount: 1 })).status).toBe(404);
    expect((await pay(owner, 'nope', { amount: 1 })).status).toBe(400);
  });
});

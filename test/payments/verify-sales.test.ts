/**
 * Offline mobile-money sales verified against what the provider reported (issue 38), over real
 * HTTP: a till's sale pushed with the reference from the customer's SMS waits `unverified`; the
 * customer's payment, whether it arrives before or after, verifies it; past the owner's window it is
 * flagged `unmatched` and the store told, and a late payment still verifies it. A right reference
 * with another amount, a second sale naming a taken payment, cash, and a store without an account
 * are never verified.
 */
import { Envelope, newId, NotificationList, PullResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySales } from '../../server/src/modules/payments/inbox/verify-sales.js';
import { addStore } from '../setup/factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';
import { AZAM, MIN, offlineShops } from './offline-shop.js';

describe('offline mobile-money sales verified', () => {
  let t: TestApp;
  let http: Listening;
  beforeAll(async () => {
    t = await createTestApp();
    http = await listen(t);
  });
  afterAll(async () => {
    await http.close();
    await t.close();
  });
  const { shop, sale, push, saleOf, verification, customerPays, payment, runJob, addAccount, awake } = offlineShops(
    () => t,
    () => http,
  );
  const notes = async (token: string) =>
    NotificationList.parse((await t.request('GET', '/notifications', { token })).body.data).notifications.filter((n) =>
      n.title.includes('mobile-money'),
    );

  it('verifies a sale pushed with its SMS reference once the customer’s payment is reported, matching the payment to it', async () => {
    const s = await shop();
    const [id] = await push(s, [
      sale(s, 3, 'M-Pesa', { payment_reference: 'qk7h2m9x1p', payment_phone: '0754 000 111' }, t.clock.now() - 5 * MIN),
    ]);
    expect(await saleOf(s, id!)).toMatchObject({
      payment_method: 'M-Pesa',
      payment_reference: 'qk7h2m9x1p',
      payment_phone: '+255754000111',
      payment_verification: 'unverified',
      total: 3000,
    });
    t.clock.advance(2 * MIN);
    await customerPays(s.callback!, 'QK7H2M9X1P', 3000);
    expect(await verification(s, id!)).toBe('verified');
    const p = await payment(s.owner.orgId, 'RQK7H2M9X1P');
    expect([p.matched_sale_id, Number(p.matched_at)]).toEqual([id, t.clock.now()]);
    // Tills learn it by pulling: the sale is in the change log again.
    const changes: PullResponse['changes'] = [];
    for (let cursor = ''; ; ) {
      const res = await t.request('GET', `/sync/pull${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { token: s.owner.token });
      const page = Envelope(PullResponse).parse(res.body).data;
      changes.push(...page.changes);
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    const mine = changes.filter((c) => c.entity === 'transaction' && c.id === id);
    expect((mine.at(-1)!.data as { payment_verification: string }).payment_verification).toBe('verified');
  });

  it('verifies a sale pushed after its payment arrived, right after the push, by the provider’s reference too', async () => {
    const s = await shop();
    await customerPays(s.callback!, 'PAYFIRST1', 2000, 'MPESA', '255713999888');
    expect((await payment(s.owner.orgId, 'RPAYFIRST1')).matched_sale_id).toBeNull();
    // The cashier typed the provider's reference, in other case and with a space the till trims.
    const [id] = await push(s, [sale(s, 2, 'M-Pesa', { payment_reference: ' rpayfirst1 ', payment_phone: '0754000111' })]);
    expect(await verification(s, id!)).toBe('verified');
    expect((await payment(s.owner.orgId, 'RPAYFIRST1')).matched_sale_id).toBe(id);
  });

  it('flags a sale unmatched once the owner’s window passes, notifies the store once, and still verifies it when the payment comes late', async () => {
    const s = await shop();
    const [id] = await push(s, [sale(s, 4, 'Airtel Money', { payment_reference: 'LATE-001' })]);
    t.clock.advance(59 * MIN);
    await runJob();
    expect(await verification(s, id!)).toBe('unverified');
    t.clock.advance(MIN);
    await runJob();
    expect(await verification(s, id!)).toBe('unmatched');
    await runJob();
    await awake(s);
    const flagged = await notes(s.owner.token);
    const receipt = (await saleOf(s, id!)).receipt_number;
    expect(flagged).toEqual([
      expect.objectContaining({
        title: '1 mobile-money sale not confirmed (TZS 4,000)',
        body: expect.stringContaining(`within 60 minutes: ${receipt} (TZS 4,000, Airtel Money, ref LATE-001)`),
      }),
    ]);

    t.clock.advance(3 * 60 * MIN);
    await customerPays(s.callback!, 'LATE-001', 4000, 'AIRTELMONEY');
    expect(await verification(s, id!)).toBe('verified');
    expect((await payment(s.owner.orgId, 'RLATE-001')).matched_sale_id).toBe(id);
  });

  it('flags after the window the owner set; only the owner sets it, within 5 minutes to a week', async () => {
    const s = await shop();
    const patch = (token: string, body: unknown) => t.request('PATCH', '/accounts/organisation', { token, body });
    const set = await patch(s.owner.token, { payment_match_window_min: 15 });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.payment_match_window_min).toBe(15);
    expect((await t.request('GET', '/accounts/organisation', { token: s.owner.token })).body.data.payment_match_window_min).toBe(15);
    for (const bad of [4, 10_081, 7.5]) {
      const res = await patch(s.owner.token, { payment_match_window_min: bad });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('payment_match_window_min');
    }
    const { createStaff } = await import('../setup/factories.js');
    const manager = await createStaff(t, s.owner, { role: 'manager' });
    expect((await patch(manager.token, { payment_match_window_min: 30 })).status).toBe(403);

    const [id] = await push(s, [sale(s, 1, 'Tigo Pesa', { payment_reference: 'WIN15' })]);
    t.clock.advance(14 * MIN);
    await runJob();
    expect(await verification(s, id!)).toBe('unverified');
    t.clock.advance(MIN);
    await runJob();
    expect(await verification(s, id!)).toBe('unmatched');
  });

  it('does not verify a sale whose reference is right but amount is not; of two sales naming one payment, the first takes it', async () => {
    const s = await shop();
    const [short, first, second] = await push(s, [
      sale(s, 2, 'M-Pesa', { payment_reference: 'AMT-1' }, t.clock.now() - 3 * MIN),
      sale(s, 5, 'M-Pesa', { payment_reference: 'TWICE-1' }, t.clock.now() - 2 * MIN),
      sale(s, 5, 'M-Pesa', { payment_reference: 'twice-1' }, t.clock.now() - MIN),
    ]);
    await customerPays(s.callback!, 'AMT-1', 1900);
    await customerPays(s.callback!, 'TWICE-1', 5000);
    expect(await verification(s, short!)).toBe('unverified');
    expect((await payment(s.owner.orgId, 'RAMT-1')).matched_sale_id).toBeNull();
    expect([await verification(s, first!), await verification(s, second!)]).toEqual(['verified', 'unverified']);
    expect((await payment(s.owner.orgId, 'RTWICE-1')).matched_sale_id).toBe(first);
    // The job's sweep finds nothing more for them either.
    await runJob();
    expect([await verification(s, first!), await verification(s, second!)]).toEqual(['verified', 'unverified']);
  });

  it('checks nothing for cash, nor in a store without an account; an organisation-wide account makes every store check', async () => {
    const s = await shop();
    const [cash] = await push(s, [sale(s, 1, 'Cash', { payment_reference: 'CASH-1' })]);
    expect(await verification(s, cash!)).toBeNull();
    const online = await t.request('POST', '/pos/sale', {
      token: s.owner.token,
      body: { lines: [{ product_id: s.product.id, qty: 1 }], payment_method: 'M-Pesa', payment_reference: 'ONLINE-1' },
    });
    expect(online.status, online.text).toBe(201);
    expect(online.body.data.payment_verification).toBe('unverified');

    const bare = await shop({ account: false });
    const [mpesa] = await push(bare, [sale(bare, 1, 'M-Pesa', { payment_reference: 'NOACC-1' })]);
    expect(await verification(bare, mpesa!)).toBeNull();
    t.clock.advance(2 * 60 * MIN);
    await runJob();
    expect(await verification(bare, mpesa!)).toBeNull();
    await awake(bare);

    // The organisation-wide account: the same store now checks, and its payments verify.
    const orgWide = await addAccount(bare.owner, { provider: 'azampay', label: 'Azam', credentials: AZAM });
    const [checked] = await push(bare, [sale(bare, 2, 'M-Pesa', { payment_reference: 'AZ-REF-9' })]);
    expect(await verification(bare, checked!)).toBe('unverified');
    const { AzamPayFake } = await import('../fakes/azampay-fake.js');
    const body = { accountNumber: '255754000111', amount: '2000', externalId: 'shop-till', provider: 'Mpesa', transactionId: 'AZ-REF-9' };
    expect(await new AzamPayFake(AZAM).pay(body, orgWide)).toBe(200);
    expect(await verification(bare, checked!)).toBe('verified');
  });

  it('keeps a verified sale verified through its refund', async () => {
    const s = await shop();
    const [id] = await push(s, [sale(s, 2, 'M-Pesa', { payment_reference: 'REFUND-1' })]);
    await customerPays(s.callback!, 'REFUND-1', 2000);
    const refunded = await t.request('POST', `/pos/transactions/${id}/refund`, { token: s.owner.token, body: { reason: 'wrong size' } });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.data).toMatchObject({ status: 'refunded', payment_verification: 'verified' });
  });

  it('matches one payment to one sale when two instances match the same sales at once', async () => {
    const s = await shop();
    const ids = await push(s, [
      sale(s, 3, 'M-Pesa', { payment_reference: 'RACE-1' }),
      sale(s, 3, 'M-Pesa', { payment_reference: 'RACE-1' }),
    ]);
    // Stored straight, as a callback whose own matching was lost would leave it.
    const account = await t.db.db
      .selectFrom('collection_accounts')
      .select('id')
      .where('org_id', '=', s.owner.orgId)
      .executeTakeFirstOrThrow();
    const paymentId = newId();
    await t.db.db
      .insertInto('received_payments')
      .values({
        org_id: s.owner.orgId,
        id: paymentId,
        account_id: account.id,
        store_id: s.owner.storeId,
        provider: 'selcom',
        provider_ref: 'RRACE-1',
        reference: 'RACE-1',
        amount: 300_000,
        payer_phone: null,
        network: 'MPESA',
        status: 'paid',
        received_at: t.clock.now(),
        raw: '{}',
        matched_sale_id: null,
        matched_at: null,
      })
      .execute();
    const ctx = t.serviceCtx();
    const runs = await Promise.all([verifySales(ctx, s.owner.orgId, ids), verifySales(ctx, s.owner.orgId, [...ids].reverse()), runJob()]);
    expect(runs[0].length + runs[1].length).toBeLessThanOrEqual(1);
    expect(await Promise.all(ids.map((id) => verification(s, id)))).toEqual(['verified', 'unverified']);
    expect((await payment(s.owner.orgId, 'RRACE-1')).matched_sale_id).toBe(ids[0]);
  });

  it('never matches another store’s payment', async () => {
    const s = await shop();
    const branch = await addStore(t, s.owner.orgId);
    const switched = await t.request('POST', '/accounts/switch-store', { token: s.owner.token, body: { store_id: branch.id } });
    expect(switched.status, switched.text).toBe(200);
    const there = await shop({ owner: { ...s.owner, token: switched.body.data.tokens.access_token, storeId: branch.id } });
    const [id] = await push(there, [sale(there, 1, 'M-Pesa', { payment_reference: 'BRANCH-1' })]);
    await customerPays(s.callback!, 'BRANCH-1', 1000);
    expect(await verification(there, id!)).toBe('unverified');
    expect((await payment(s.owner.orgId, 'RBRANCH-1')).matched_sale_id).toBeNull();
  });
});

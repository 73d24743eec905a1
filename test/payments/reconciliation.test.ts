/**
 * The owner's mobile-money reconciliation over real HTTP (issue 38): a day with verified,
 * unverified, unmatched, refunded and cash sales and unclaimed payments (the store's own account's
 * in every wallet and another, the organisation-wide account's flagged apart), exact per wallet,
 * in its lists and as CSV; the day before excluded (and its unchecked sale); a shift's part; who
 * may read it and whose shift.
 */
import { Envelope, PaymentReconciliation } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzamPayFake } from '../fakes/azampay-fake.js';
import { createStaff, registerOwner } from '../setup/factories.js';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';
import { AZAM, MIN, type OfflineShop, offlineShops, SELCOM } from './offline-shop.js';

const fig = (amount: number, count: number) => ({ amount, count });
const ZERO = fig(0, 0);
const wallet = (w: string, f: Partial<Record<string, { amount: number; count: number }>>, difference: number) => ({
  wallet: w,
  expected: ZERO,
  verified: ZERO,
  unverified: ZERO,
  unmatched: ZERO,
  unchecked: ZERO,
  confirmed: ZERO,
  unclaimed: ZERO,
  ...f,
  difference,
});

describe('mobile-money reconciliation', () => {
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
  const { shop, sale, push, saleOf, customerPays, runJob, addAccount, awake } = offlineShops(
    () => t,
    () => http,
  );
  const at = (iso: string) => t.clock.advance(Date.parse(iso) - t.clock.now());
  const get = (s: OfflineShop, q: string, token = s.owner.token) => t.request('GET', `/payments/reconciliation${q}`, { token });
  const reconcile = async (s: OfflineShop, q: string) => {
    const res = await get(s, q);
    expect(res.status, res.text).toBe(200);
    return Envelope(PaymentReconciliation).parse(res.body).data;
  };
  const post = async (s: OfflineShop, path: string, body: unknown) => {
    const res = await t.request('POST', path, { token: s.owner.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  const phone = { payment_phone: '0754000111' };

  it('reconciles a day, the day before and a shift exactly, lists what needs the owner, and exports the day as CSV', async () => {
    // 19 November, 13:00 in Dar es Salaam: a sale before the shop had an account, then one verified, and a payment no sale claims.
    at('2026-11-19T10:00:00Z');
    const s = await shop({ account: false });
    const [y1] = await push(s, [sale(s, 2, 'M-Pesa', { payment_reference: 'YDAY-1' })]);
    t.clock.advance(MIN);
    const own = await addAccount(s.owner, { provider: 'selcom', label: 'Selcom', store_id: s.owner.storeId, credentials: SELCOM });
    const orgWide = await addAccount(s.owner, { provider: 'azampay', label: 'Azam', credentials: AZAM });
    t.clock.advance(MIN);
    const [y2] = await push(s, [sale(s, 1, 'M-Pesa', { payment_reference: 'YDAY-2' })]);
    t.clock.advance(MIN);
    await customerPays(own, 'YDAY-2', 1000);
    t.clock.advance(MIN);
    await customerPays(own, 'YDAY-X', 800, 'TIGOPESA');

    // 20 November from 08:00.
    at('2026-11-20T05:00:00Z');
    await awake(s);
    const step = () => t.clock.advance(MIN);
    const [s1] = await push(s, [sale(s, 3, 'M-Pesa', { payment_reference: 'MP-1', ...phone })]);
    step();
    await customerPays(own, 'MP-1', 3000);
    step();
    const [s2] = await push(s, [sale(s, 2, 'M-Pesa', { payment_reference: 'MP-2', ...phone })]);
    step();
    const [s3] = await push(s, [sale(s, 4, 'Tigo Pesa', { payment_reference: 'TG-1' })]);
    step();
    await customerPays(own, 'TG-1', 4000, 'TIGOPESA');
    step();
    await post(s, `/pos/transactions/${s3}/refund`, { reason: 'returned' });
    step();
    await push(s, [sale(s, 1, 'Cash')]);
    step();
    await customerPays(own, 'STRAY-1', 2500, 'TIGOPESA', '255715000222');
    step();
    const azam = { accountNumber: '255688000333', amount: '700', externalId: 'shop-till', provider: 'Airtel', transactionId: 'AZ-STRAY' };
    expect(await new AzamPayFake(AZAM).pay(azam, orgWide)).toBe(200);
    step();
    await customerPays(own, 'HALO-1', 1200, 'HALOPESA', '255621000444');
    at('2026-11-20T06:03:00Z');
    expect(await runJob()).toEqual({ matched: 0, flagged: 1 });
    await awake(s);
    const shift = await post(s, '/pos/shifts', { opening_float: 0 });
    step();
    const [s5] = await push(s, [sale(s, 5, 'Airtel Money', { payment_reference: 'AM-1' })]);
    step();
    const [s6] = await push(s, [sale(s, 1, 'M-Pesa', { payment_reference: 'MP-3' })]);
    step();
    await customerPays(own, 'MP-3', 1000);
    step();
    await customerPays(own, 'SHIFT-STRAY', 600, 'AIRTELMONEY', '255688000555');
    step();
    await post(s, `/pos/shifts/${shift.id}/close`, { counted: { Cash: 0 } });
    step();
    await customerPays(own, 'AFTER-SHIFT', 900);

    const receipt = new Map<string, string>();
    for (const id of [y1!, y2!, s1!, s2!, s3!, s5!, s6!]) receipt.set(id, (await saleOf(s, id)).receipt_number);
    const toCheck = (
      id: string,
      verification: string,
      amount: number,
      w: string,
      ref: string,
      created: string,
      payment_phone: string | null,
    ) => ({
      id,
      receipt_number: receipt.get(id),
      created_at: created,
      amount,
      wallet: w,
      payment_verification: verification,
      payment_phone,
      payment_reference: ref,
      cashier_id: s.owner.userId,
      cashier_name: 'Asha Mushi',
    });
    const unclaimed = (
      providerRef: string,
      reference: string | null,
      w: string,
      network: string,
      amount: number,
      payer: string,
      received: string,
      organisationWide = false,
    ) =>
      expect.objectContaining({
        provider_ref: providerRef,
        reference,
        wallet: w,
        network,
        amount,
        payer_phone: payer,
        received_at: received,
        organisation_wide: organisationWide,
      });

    const day = await reconcile(s, '?date=2026-11-20');
    expect(day).toMatchObject({
      store_id: s.owner.storeId,
      date: '2026-11-20',
      shift_id: null,
      from: '2026-11-19T21:00:00.000Z',
      to: '2026-11-20T21:00:00.000Z',
    });
    expect(day.wallets).toEqual([
      wallet(
        'M-Pesa',
        { expected: fig(6000, 3), verified: fig(4000, 2), unmatched: fig(2000, 1), confirmed: fig(4900, 3), unclaimed: fig(900, 1) },
        -1100,
      ),
      wallet('Tigo Pesa', { confirmed: fig(2500, 1), unclaimed: fig(2500, 1) }, 2500),
      wallet('Airtel Money', { expected: fig(5000, 1), unverified: fig(5000, 1), confirmed: fig(600, 1), unclaimed: fig(600, 1) }, -4400),
      wallet('other', { confirmed: fig(1200, 1), unclaimed: fig(1200, 1) }, 1200),
    ]);
    expect(day.totals).toEqual({
      expected: fig(11000, 4),
      verified: fig(4000, 2),
      unverified: fig(5000, 1),
      unmatched: fig(2000, 1),
      unchecked: ZERO,
      confirmed: fig(9200, 6),
      unclaimed: fig(5200, 4),
      difference: -1800,
    });
    expect(day.unclaimed_payments).toEqual([
      unclaimed('RSTRAY-1', 'STRAY-1', 'Tigo Pesa', 'TIGOPESA', 2500, '+255715000222', '2026-11-20T05:07:00.000Z'),
      unclaimed('AZ-STRAY', 'shop-till', 'Airtel Money', 'Airtel', 700, '+255688000333', '2026-11-20T05:08:00.000Z', true),
      unclaimed('RHALO-1', 'HALO-1', 'other', 'HALOPESA', 1200, '+255621000444', '2026-11-20T05:09:00.000Z'),
      unclaimed('RSHIFT-STRAY', 'SHIFT-STRAY', 'Airtel Money', 'AIRTELMONEY', 600, '+255688000555', '2026-11-20T06:07:00.000Z'),
      unclaimed('RAFTER-SHIFT', 'AFTER-SHIFT', 'M-Pesa', 'MPESA', 900, '+255754000111', '2026-11-20T06:09:00.000Z'),
    ]);
    expect(day.sales_to_check).toEqual([
      toCheck(s2!, 'unmatched', 2000, 'M-Pesa', 'MP-2', '2026-11-20T05:02:00.000Z', '+255754000111'),
      toCheck(s5!, 'unverified', 5000, 'Airtel Money', 'AM-1', '2026-11-20T06:04:00.000Z', null),
    ]);
    expect(day.reversed_sales).toEqual([
      { ...toCheck(s3!, 'verified', 4000, 'Tigo Pesa', 'TG-1', '2026-11-20T05:03:00.000Z', null), status: 'refunded' },
    ]);

    const before = await reconcile(s, '?date=2026-11-19');
    expect(before.wallets.slice(0, 2)).toEqual([
      wallet('M-Pesa', { expected: fig(3000, 2), verified: fig(1000, 1), unchecked: fig(2000, 1), confirmed: fig(1000, 1) }, -2000),
      wallet('Tigo Pesa', { confirmed: fig(800, 1), unclaimed: fig(800, 1) }, 800),
    ]);
    expect(before.unclaimed_payments.map((p) => p.provider_ref)).toEqual(['RYDAY-X']);
    expect(before.sales_to_check).toEqual([]);

    const ofShift = await reconcile(s, `?shift_id=${shift.id}`);
    expect(ofShift).toMatchObject({ date: null, shift_id: shift.id, from: '2026-11-20T06:03:00.000Z', to: '2026-11-20T06:08:00.001Z' });
    expect(ofShift.wallets).toEqual([
      wallet('M-Pesa', { expected: fig(1000, 1), verified: fig(1000, 1), confirmed: fig(1000, 1) }, 0),
      wallet('Tigo Pesa', {}, 0),
      wallet('Airtel Money', { expected: fig(5000, 1), unverified: fig(5000, 1), confirmed: fig(600, 1), unclaimed: fig(600, 1) }, -4400),
      wallet('other', {}, 0),
    ]);
    expect(ofShift.unclaimed_payments.map((p) => p.provider_ref)).toEqual(['RSHIFT-STRAY']);
    expect(ofShift.sales_to_check.map((x) => x.id)).toEqual([s5]);
    // The shift's part of the day before: nothing.
    const none = await reconcile(s, `?shift_id=${shift.id}&date=2026-11-19`);
    expect([none.totals.expected, none.totals.confirmed, none.unclaimed_payments]).toEqual([ZERO, ZERO, []]);

    const csv = await t.request('GET', '/payments/reconciliation.csv?date=2026-11-20', { token: s.owner.token });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="mobile-money-reconciliation_2026-11-20.csv"');
    const r = (id: string) => receipt.get(id)!;
    expect(csv.text).toBe(
      [
        'record,wallet,date,time,receipt_number,status,check,amount,phone,reference,cashier,provider,provider_ref,organisation_wide',
        `sale,M-Pesa,2026-11-20,08:00:00,${r(s1!)},paid,verified,3000.00,+255754000111,MP-1,Asha Mushi,,,`,
        `sale,M-Pesa,2026-11-20,08:02:00,${r(s2!)},paid,unmatched,2000.00,+255754000111,MP-2,Asha Mushi,,,`,
        `sale,Tigo Pesa,2026-11-20,08:03:00,${r(s3!)},refunded,verified,4000.00,,TG-1,Asha Mushi,,,`,
        `sale,Airtel Money,2026-11-20,09:04:00,${r(s5!)},paid,unverified,5000.00,,AM-1,Asha Mushi,,,`,
        `sale,M-Pesa,2026-11-20,09:05:00,${r(s6!)},paid,verified,1000.00,,MP-3,Asha Mushi,,,`,
        `payment,M-Pesa,2026-11-20,08:01:00,${r(s1!)},paid,matched,3000.00,+255754000111,MP-1,,selcom,RMP-1,no`,
        `payment,M-Pesa,2026-11-20,09:06:00,${r(s6!)},paid,matched,1000.00,+255754000111,MP-3,,selcom,RMP-3,no`,
        'payment,Tigo Pesa,2026-11-20,08:07:00,,paid,unclaimed,2500.00,+255715000222,STRAY-1,,selcom,RSTRAY-1,no',
        'payment,Airtel Money,2026-11-20,08:08:00,,paid,unclaimed,700.00,+255688000333,shop-till,,azampay,AZ-STRAY,yes',
        'payment,other,2026-11-20,08:09:00,,paid,unclaimed,1200.00,+255621000444,HALO-1,,selcom,RHALO-1,no',
        'payment,Airtel Money,2026-11-20,09:07:00,,paid,unclaimed,600.00,+255688000555,SHIFT-STRAY,,selcom,RSHIFT-STRAY,no',
        'payment,M-Pesa,2026-11-20,09:09:00,,paid,unclaimed,900.00,+255754000111,AFTER-SHIFT,,selcom,RAFTER-SHIFT,no',
        '',
      ].join('\r\n'),
    );
  });

  it('needs a day or a shift, the reports permission, and a shift of this store', async () => {
    const s = await shop();
    const missing = await get(s, '');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('date');
    expect((await get(s, '?date=2026-13-01')).status).toBe(400);
    const cashier = await createStaff(t, s.owner);
    expect((await get(s, '?date=2026-11-20', cashier.token)).status).toBe(403);
    expect((await t.request('GET', '/payments/reconciliation.csv?date=2026-11-20', { token: cashier.token })).status).toBe(403);
    const manager = await createStaff(t, s.owner, { role: 'manager' });
    expect((await get(s, '?date=2026-11-20', manager.token)).status).toBe(200);

    const other = await registerOwner(t);
    const theirs = await t.request('POST', '/pos/shifts', { token: other.token, body: { opening_float: 0 } });
    expect(theirs.status, theirs.text).toBe(201);
    const foreign = await get(s, `?shift_id=${theirs.body.data.id}`);
    expect(foreign.status).toBe(404);
    expect((await t.request('GET', `/payments/reconciliation.csv?shift_id=${theirs.body.data.id}`, { token: s.owner.token })).status).toBe(
      404,
    );
  });
  describe('an exchange whose difference is paid by M-Pesa (issue 52, docs/payments.md "Exchanges")', () => {
    // A shirt of 20,000 paid by M-Pesa (its payment matched) comes back for one of 25,000, 5,000 paid by M-Pesa.
    const exchangeShop = async (day: string) => {
      at(`${day}T07:00:00Z`);
      const s = await shop();
      const shift = await post(s, '/pos/shifts', { opening_float: 0 });
      const medium = await post(s, '/inventory/products', { name: 'Shati M', selling_price: 20000, stock: 5 });
      const large = await post(s, '/inventory/products', { name: 'Shati L', selling_price: 25000, stock: 5 });
      return { s, shift, medium, large };
    };
    /** The day as the owner reads it: only the new 5,000 expected, all of it seen, nothing to check. */
    const onlyTheNewMoney = async (s: OfflineShop, day: string, old: string, fresh: string) => {
      expect(await saleOf(s, fresh)).toMatchObject({ total: 25000, payment_verification: 'verified' });
      const r = await reconcile(s, `?date=${day}`);
      expect(r.wallets[0]).toEqual(wallet('M-Pesa', { expected: fig(5000, 1), verified: fig(5000, 1), confirmed: fig(5000, 1) }, 0));
      expect(r.totals.difference).toBe(0);
      expect([r.unclaimed_payments, r.sales_to_check]).toEqual([[], []]);
      // The old sale is refunded whole, in no figure; its 20,000 paid the new sale, none of it went back.
      expect(r.reversed_sales.map((x) => [x.id, x.status, x.payment_verification])).toEqual([[old, 'refunded', 'verified']]);
    };

    it('online: the new sale waits for the 5,000 paid, not the 20,000 mirrored; nothing unmatched', async () => {
      const day = '2026-11-23';
      const { s, medium, large } = await exchangeShop(day);
      const old = await post(s, '/pos/sale', {
        lines: [{ product_id: medium.id, qty: 1 }],
        payment_method: 'M-Pesa',
        payment_reference: 'EXO-1',
      });
      await customerPays(s.callback!, 'EXO-1', 20000);
      t.clock.advance(MIN);
      const done = await post(s, '/pos/exchanges', {
        transaction_id: old.id,
        reason: 'wrong size',
        back: [{ product_id: medium.id, qty: 1 }],
        out: [{ product_id: large.id, qty: 1 }],
        payment_method: 'M-Pesa',
        payment_reference: 'EXN-1',
      });
      expect(done.settlement).toEqual([{ method: 'M-Pesa', amount: 5000 }]);
      expect(done.sale.payments.map((p: { method: string; amount: number }) => [p.method, p.amount])).toEqual([['M-Pesa', 25000]]);
      expect(done.sale.payment_verification).toBe('unverified');
      t.clock.advance(MIN);
      await customerPays(s.callback!, 'EXN-1', 5000);
      await onlyTheNewMoney(s, day, old.id, done.sale.id);
    });

    it("pushed as a till's sale.exchange: the same", async () => {
      const day = '2026-11-24';
      const { s, shift, medium, large } = await exchangeShop(day);
      const shirt = (product: { id: string }, price: number, extra: Record<string, unknown>) => {
        const m = sale(s, 1, 'M-Pesa', extra);
        m.payload.lines = [{ product_id: product.id, qty: 1, unit_price: price }];
        return m;
      };
      const [old] = await push(s, [shirt(medium, 20000, { payment_reference: 'EXO-2', shift_id: shift.id })]);
      await customerPays(s.callback!, 'EXO-2', 20000);
      t.clock.advance(MIN);
      const { payload, ...m } = shirt(large, 25000, {
        payment_method: undefined,
        payments: [{ method: 'M-Pesa', amount: 25000, reference: 'EXN-2' }],
        shift_id: shift.id,
      });
      const exchange = {
        ...m,
        type: 'sale.exchange',
        payload: {
          transaction_id: old!,
          reason: 'wrong size',
          back: [{ product_id: medium.id, qty: 1 }],
          shift_id: shift.id,
          sale: payload,
        },
      };
      const [fresh] = await push(s, [exchange as unknown as ReturnType<typeof sale>]);
      t.clock.advance(MIN);
      await customerPays(s.callback!, 'EXN-2', 5000);
      await onlyTheNewMoney(s, day, old!, fresh!);
    });
  });

  it('lists a voided mobile-money sale made before the store had an account with payment_verification null, as the document says', async () => {
    at('2026-11-22T07:00:00Z');
    const s = await shop({ account: false });
    const [id] = await push(s, [sale(s, 2, 'M-Pesa', { payment_reference: 'EARLY-1' })]);
    t.clock.advance(MIN);
    await post(s, `/pos/transactions/${id}/void`, { reason: 'rung twice' });
    // The answer is checked against the OpenAPI document by the test app: null must be allowed there.
    const day = await reconcile(s, '?date=2026-11-22');
    expect(day.reversed_sales.map((r) => [r.id, r.status, r.payment_verification, r.amount])).toEqual([[id, 'void', null, 2000]]);
  });
});

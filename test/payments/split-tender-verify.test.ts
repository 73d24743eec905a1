/**
 * A sale paid partly by mobile money (issue 51) is verified by its M-Pesa part: a provider callback
 * for the part's amount verifies it, one for the sale's whole total does not; the reconciliation
 * expects the part, not the total. Over real HTTP against the local Selcom fake.
 */
import { Envelope, PaymentReconciliation } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Listening, listen, type TestApp } from '../setup/test-app.js';
import { MIN, type OfflineShop, offlineShops } from './offline-shop.js';

describe('split tender: the mobile-money part is what is verified and reconciled', () => {
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
  const { shop, sale, push, saleOf, verification, customerPays, payment } = offlineShops(
    () => t,
    () => http,
  );
  /** 12 units at TZS 1,000: 4,500 cash + 7,500 M-Pesa with the SMS reference `ref`. */
  const sellSplit = async (s: OfflineShop, ref: string) => {
    const res = await t.request('POST', '/pos/sale', {
      token: s.owner.token,
      body: {
        lines: [{ product_id: s.product.id, qty: 12 }],
        payments: [
          { method: 'Cash', amount: 4500 },
          { method: 'M-Pesa', amount: 7500, reference: ref, phone: '0754000111' },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };

  it('verifies the sale by a payment of its M-Pesa part (7,500), never by one of its total (12,000)', async () => {
    const s = await shop();
    const whole = await sellSplit(s, 'WHOLE-12000');
    const part = await sellSplit(s, 'PART-7500');
    expect(await saleOf(s, part)).toMatchObject({
      payment_method: 'Mixed',
      payment_verification: 'unverified',
      payments: [
        { method: 'Cash', amount: 4500, verification: null },
        { method: 'M-Pesa', amount: 7500, reference: 'PART-7500', verification: 'unverified' },
      ],
    });
    t.clock.advance(MIN);
    await customerPays(s.callback!, 'WHOLE-12000', 12000);
    await customerPays(s.callback!, 'PART-7500', 7500);
    expect(await verification(s, whole)).toBe('unverified');
    expect((await payment(s.owner.orgId, 'RWHOLE-12000')).matched_sale_id).toBeNull();
    expect(await saleOf(s, part)).toMatchObject({
      payment_verification: 'verified',
      payments: [{ verification: null }, { amount: 7500, verification: 'verified' }],
    });
    expect((await payment(s.owner.orgId, 'RPART-7500')).matched_sale_id).toBe(part);
  });

  it("verifies a till's pushed split sale by its part, and the reconciliation expects the part", async () => {
    const s = await shop();
    const [id] = await push(s, [
      sale(s, 3, 'Cash', {
        payment_method: undefined,
        payments: [
          { method: 'Cash', amount: 1000 },
          { method: 'Airtel Money', amount: 2000, reference: 'AIR-2000' },
        ],
      }),
    ]);
    await customerPays(s.callback!, 'AIR-2000', 2000, 'AIRTEL', '255784000111');
    expect(await verification(s, id!)).toBe('verified');
    const res = await t.request(
      'GET',
      `/payments/reconciliation?date=${new Date(t.clock.now() + 3 * 3600_000).toISOString().slice(0, 10)}`,
      {
        token: s.owner.token,
      },
    );
    expect(res.status, res.text).toBe(200);
    const day = Envelope(PaymentReconciliation).parse(res.body).data;
    const airtel = day.wallets.find((w) => w.wallet === 'Airtel Money')!;
    expect(airtel).toMatchObject({ expected: { amount: 2000, count: 1 }, verified: { amount: 2000, count: 1 }, difference: 0 });
    expect(day.wallets.find((w) => w.wallet === 'M-Pesa')!.expected).toEqual({ amount: 0, count: 0 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openTill, seedShop, signIn, startServer } from './harness.js';

/** Airtel Money (beyond the contract's five methods) is a method the till sells with offline, and the server counts it. */
describe('till: Airtel Money', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

  it('sells with Airtel Money offline; after sync the server has it in airtel_money_total', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    await signIn(till, shop);
    await till.syncNow();
    h.net.offline = true;
    const sale = await till.sell({
      lines: [{ product_id: shop.unga.id, qty: 2 }],
      payment_method: 'Airtel Money',
      payment_reference: 'MP2605.A1',
    });
    await till.sell({ lines: [{ product_id: shop.soda.id, qty: 3 }], payment_method: 'Cash' });
    expect(sale).toMatchObject({ payment_method: 'Airtel Money', total: 5000, sync_state: 'pending' });
    h.net.offline = false;
    expect((await till.syncNow()).pushed).toBe(2);
    const summary = (await h.t.request('GET', '/pos/summary', { token: shop.owner.token })).body.data;
    expect(summary).toMatchObject({
      total_sales: 8000,
      transaction_count: 2,
      cash_total: 3000,
      airtel_money_total: 5000,
      mpesa_total: 0,
      tigo_pesa_total: 0,
    });
    await till.close();
  });
});

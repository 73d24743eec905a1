/**
 * Issue 21's offline till against the fake TRA: 200 sales sold with the network down are numbered
 * for TRA in the order the till sold them when its queue reaches the server, sent to TRA in that
 * order with gapless counters, each once; the till then shows every receipt as issued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fiscalise, fiscalWorld } from '../../test/setup/fiscal.js';
import { type Harness, openTill, seedShop, signIn, startServer } from './harness.js';

describe('till: 200 offline sales fiscalised against TRA', () => {
  const w = fiscalWorld(1);
  let h: Harness;
  beforeAll(async () => {
    await w.tra.start();
    h = await startServer({ config: { TRA_TEST_URL: w.tra.url, TRA_TIMEOUT_MS: 2_000 } });
  });
  afterAll(async () => {
    await h.t.deps.fiscal.idle();
    await h.close();
    await w.tra.stop();
  });

  it('numbers them in the till’s order after its push, sends each once in order, and the till shows them issued', async () => {
    const shop = await seedShop(h);
    await fiscalise(h.t, w, shop.owner, 0);
    const maji = await h.t.request('POST', '/inventory/products', {
      token: shop.owner.token,
      body: { name: 'Maji 1l', selling_price: 800, stock: 1000 },
    });
    expect(maji.status, maji.text).toBe(200);
    const till = await openTill(h);
    await signIn(till, shop);
    await till.syncNow();

    h.net.offline = true;
    const sold = [];
    for (let i = 0; i < 200; i++)
      sold.push(
        await till.sell({ lines: [{ product_id: maji.body.data.id, qty: 1 + (i % 3) }], payment_method: i % 4 === 0 ? 'M-Pesa' : 'Cash' }),
      );
    expect(sold.every((s) => s.fiscal === null)).toBe(true);

    h.net.offline = false;
    await till.syncNow();
    await h.t.deps.fiscal.idle();
    const device = w.tra.device();
    expect(device.receipts.map((r) => r.gc)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(device.receipts.map((r) => r.totalInclCents)).toEqual(sold.map((_, i) => 80_000 * (1 + (i % 3))));
    expect(device.receipts.map((r) => Object.keys(r.payments)[0])).toEqual(sold.map((_, i) => (i % 4 === 0 ? 'EMONEY' : 'CASH')));
    expect(device).toMatchObject({ attempts: 200, resends: 0 });
    expect(w.tra.violations).toEqual([]);

    await till.syncNow();
    const onTill = await Promise.all(sold.map(async (s) => (await till.transaction(s.id))!.fiscal));
    expect(onTill.map((f) => [f?.status, f?.gc])).toEqual(sold.map((_, i) => ['issued', i + 1]));
    await till.close();
  });
});

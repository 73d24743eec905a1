/** The README's "a till's day", run against the real server: if this breaks, so does the example. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NumberedReceipt } from '@duka/client-sdk';
import { type Harness, openTill, seedShop, serverView, startServer } from './harness.js';

describe("a till's day (README example)", () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(() => h.close());

  it('opens, signs in, bootstraps, sells through an outage, syncs and reads its receipt numbers', async () => {
    const shop = await seedShop(h);
    // Morning: open the till and sign in; the first sync loads the shop.
    const till = await openTill(h, { deviceName: 'Counter 1' });
    const log: string[] = [];
    till.on('progress', ({ done, total }) => log.push(`loading ${done}/${total}`));
    till.on('offline', () => log.push('offline'));
    till.on('online', () => log.push('online'));
    const numbered: NumberedReceipt[] = [];
    till.on('synced', (r) => numbered.push(...r.numbered));
    await till.login(shop.owner.phone, shop.owner.password);
    await till.syncNow();
    expect(log.at(-1)).toMatch(/^loading (\d+)\/\1$/);

    // Midday: the network drops. The till keeps selling from its replica.
    h.net.offline = true;
    const soda = await till.productByCode('6161100000017');
    const [unga] = await till.searchProducts('unga');
    const receipt = await till.sell({
      lines: [
        { product_id: soda!.id, qty: 2 },
        { product_id: unga!.id, qty: 1 },
      ],
      payment_method: 'M-Pesa',
      payment_reference: 'QK7X2',
    });
    expect(receipt).toMatchObject({ total: 4500, number: null, sync_state: 'pending' });
    expect(receipt.client_receipt_number).toMatch(/^[A-Z0-9]+-T1-1$/);
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    expect(till.status()).toMatchObject({ online: false, pending: 1 });

    // Afternoon: the network is back; the queue goes up and the server numbers the sale.
    h.net.offline = false;
    await till.syncNow();
    expect(numbered).toEqual([expect.objectContaining({ client_receipt_number: receipt.client_receipt_number, number: 1 })]);
    const synced = await till.transaction(receipt.id);
    expect(synced?.receipt_number).toMatch(/-000001$/);
    expect(till.status()).toMatchObject({ online: true, pending: 0, lastError: null });
    expect(log).toContain('offline');
    expect(log.at(-1)).toBe('online');

    const server = await serverView(h, shop);
    expect((await server.transactions()).items.map((t) => t.receipt_number)).toEqual([synced!.receipt_number]);
    await till.close();
  });
});

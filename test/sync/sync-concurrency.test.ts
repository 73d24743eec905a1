/** Many tills of one store syncing at once: no deadlock, no lost registration, every sale once. */
import { Envelope, newId, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('tills syncing at the same time', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('registers 8 tills at once with distinct codes and applies their overlapping pushes exactly once', async () => {
    const owner = await registerOwner(t);
    const products: Array<{ id: string; selling_price: number }> = [];
    for (const name of ['A', 'B', 'C', 'D']) {
      products.push(
        (await t.request('POST', '/inventory/products', { token: owner.token, body: { name, selling_price: 1000, stock: 10_000 } })).body
          .data,
      );
    }
    const ids = Array.from({ length: 8 }, () => newId());
    const regs = await Promise.all(
      ids.map((device_id, i) => t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: `Till ${i + 1}` } })),
    );
    expect(regs.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(regs.map((r) => r.body.data.till_code)).size).toBe(8);

    const at = new Date(t.clock.now() - 60_000).toISOString();
    const pushes = await Promise.all(
      ids.map((device_id, d) =>
        t.request('POST', '/sync/push', {
          token: owner.token,
          body: {
            device_id,
            // Each till sells the products in a different order, the worst case for lock order.
            mutations: Array.from({ length: 25 }, (_, i) => ({
              id: newId(),
              seq: i + 1,
              type: 'sale.create',
              created_at: at,
              payload: {
                id: newId(),
                client_receipt_number: `T${d}-${i}`,
                lines: [0, 1, 2].map((k) => ({ product_id: products[(d + i + k * (d % 2 ? 1 : 3)) % 4]!.id, qty: 1, unit_price: 1000 })),
                payment_method: 'Cash',
              },
            })),
          },
        }),
      ),
    );
    expect(pushes.map((p) => p.status)).toEqual(Array(8).fill(200));
    for (const p of pushes)
      expect(
        Envelope(PushResponse)
          .parse(p.body)
          .data.results.every((r) => r.status === 'applied'),
      ).toBe(true);
    const rows = await t.db.db
      .selectFrom('transactions')
      .select('number')
      .where('store_id', '=', owner.storeId)
      .orderBy('number')
      .execute();
    expect(rows.map((r) => r.number)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const stock = await t.db.db
      .selectFrom('product_stock')
      .select((eb) => eb.fn.sum<number>('qty').as('left'))
      .where('store_id', '=', owner.storeId)
      .executeTakeFirstOrThrow();
    expect(Number(stock.left)).toBe(40_000 - 600);
  }, 120_000);
});

/** The "done when": a till offline for a day pushes 2,000 queued sales and catches up. */
import { Envelope, newId, PullResponse, PushResponse } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('a till back after a day offline', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('pushes 2,000 sales with nothing lost or doubled, and pulls what changed meanwhile', async () => {
    const owner = await registerOwner(t);
    const products: Array<{ id: string; selling_price: number }> = [];
    for (const [name, price] of [
      ['Sukari', 3200],
      ['Unga', 2500],
      ['Mafuta', 5500],
      ['Chai', 800],
    ] as const) {
      products.push(
        (await t.request('POST', '/inventory/products', { token: owner.token, body: { name, selling_price: price, stock: 3000 } })).body
          .data as { id: string; selling_price: number },
      );
    }
    const deviceId = newId();
    await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id: deviceId, name: 'Till 1' } });
    const start = (await t.request('GET', '/sync/pull', { token: owner.token })).body.data.cursor as string;
    const dayStart = t.clock.now();
    t.clock.advance(86_400_000);

    const mutations = Array.from({ length: 2000 }, (_, i) => {
      const p = products[i % products.length]!;
      return {
        id: newId(),
        seq: i + 1,
        type: 'sale.create',
        created_at: new Date(dayStart + i * 40_000).toISOString(),
        payload: {
          id: newId(),
          client_receipt_number: `X-T1-${i + 1}`,
          lines: [{ product_id: p.id, qty: 1 + (i % 2), unit_price: p.selling_price }],
          payment_method: i % 3 ? 'Cash' : 'M-Pesa',
        },
      };
    });
    // The owner, back the next morning, changed a price before the till came online.
    const fresh = (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } })).body.data
      .access_token as string;
    const patched = await t.request('PATCH', `/inventory/products/${products[3]!.id}`, { token: fresh, body: { selling_price: 900 } });
    expect(patched.status).toBe(200);
    for (let i = 0; i < 2000; i += 500) {
      const res = await t.request('POST', '/sync/push', {
        token: fresh,
        body: { device_id: deviceId, mutations: mutations.slice(i, i + 500) },
      });
      expect(res.status, res.text).toBe(200);
      const body = Envelope(PushResponse).parse(res.body).data;
      expect(body.results.filter((r) => r.status === 'applied')).toHaveLength(500);
      // The first reply is lost: the till resends the batch, which changes nothing.
      if (i === 0) {
        const again = Envelope(PushResponse).parse(
          (await t.request('POST', '/sync/push', { token: fresh, body: { device_id: deviceId, mutations: mutations.slice(0, 500) } })).body,
        ).data;
        expect(again.results.every((r) => r.status === 'duplicate')).toBe(true);
      }
    }

    const sold = mutations.reduce((acc, _m, i) => acc.set(i % 4, (acc.get(i % 4) ?? 0) + 1 + (i % 2)), new Map<number, number>());
    for (const [k, p] of products.entries()) {
      expect((await t.request('GET', `/inventory/products/${p.id}`, { token: fresh })).body.data.stock).toBe(3000 - sold.get(k)!);
    }
    const list = (await t.request('GET', '/pos/transactions?page_size=1', { token: fresh })).body;
    expect(list.meta.total).toBe(2000);
    const numbers = await t.db.db
      .selectFrom('transactions')
      .select(['number', 'client_receipt_number'])
      .where('store_id', '=', owner.storeId)
      .orderBy('number')
      .execute();
    expect(numbers.map((n) => n.number)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(new Set(numbers.map((n) => n.client_receipt_number)).size).toBe(2000);
    // Every sale happened before the change, at the price then in force: nothing for the owner to review.
    expect((await t.request('GET', '/sync/conflicts?kind=stale_price', { token: fresh })).body.meta.total).toBe(0);

    let cursor = start;
    const seen = new Map<string, unknown>();
    for (;;) {
      const page = Envelope(PullResponse).parse(
        (await t.request('GET', `/sync/pull?cursor=${encodeURIComponent(cursor)}&limit=1000`, { token: fresh })).body,
      ).data;
      for (const c of page.changes) seen.set(`${c.entity}:${c.id}`, c.data);
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    expect((seen.get(`product:${products[3]!.id}`) as { selling_price: number }).selling_price).toBe(900);
    expect((seen.get(`stock:${products[0]!.id}`) as { stock: number }).stock).toBe(3000 - sold.get(0)!);
  }, 240_000);
});

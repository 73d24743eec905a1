/**
 * What the seeded fuzzer (test/fuzz/) found answering 5xx, each as a focused test that failed on
 * the code before its fix.
 */
import { newId } from '@duka/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('fuzz findings', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const product = async (s: Session, stock: number) =>
    (await t.request('POST', '/inventory/products', { token: s.token, body: { name: 'Soda', selling_price: 1000, stock } })).body.data
      .id as string;
  const adjust = (s: Session, id: string, qty_change: number) =>
    t.request('POST', `/inventory/products/${id}/adjust`, { token: s.token, body: { qty_change, reason: 'count' } });

  it('refuses stock past 1,000,000,000 units with a 422 naming the product, on both databases (Postgres answered 500)', async () => {
    const owner = await registerOwner(t);
    const id = await product(owner, 1_000_000_000);
    const res = await adjust(owner, id, 1_000_000_000);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors).toEqual([
      { code: 'BUSINESS_RULE', field: 'qty_change', message: 'stock of Soda would pass 1,000,000,000 units (1,000,000,000 now)' },
    ]);
    expect((await adjust(owner, id, -5)).body.data.stock).toBe(999_999_995);
    expect((await adjust(owner, id, 5)).body.data.stock).toBe(1_000_000_000);
  });

  it('rejects a pushed stock adjustment beyond the REST bounds as invalid, alone (Postgres answered 500 for the whole push)', async () => {
    const owner = await registerOwner(t);
    const id = await product(owner, 10);
    const device_id = newId();
    await t.request('POST', '/sync/devices', { token: owner.token, body: { device_id, name: 'Till' } });
    const created_at = new Date(t.clock.now() - 60_000).toISOString();
    const adjustment = (seq: number, qty_change: number) => ({
      id: newId(),
      seq,
      type: 'stock.adjust',
      created_at,
      payload: { product_id: id, qty_change, reason: 'count' },
    });
    const res = await t.request('POST', '/sync/push', {
      token: owner.token,
      body: { device_id, mutations: [adjustment(1, 9_007_199_254_740_991), adjustment(2, 3)] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.results.map((r: { status: string; error?: unknown }) => [r.status, r.error ?? null])).toEqual([
      ['rejected', { code: 'VALIDATION_ERROR', message: 'payload.qty_change must be at most 1000000000' }],
      ['applied', null],
    ]);
    expect((await t.request('GET', `/inventory/products/${id}`, { token: owner.token })).body.data.stock).toBe(13);
  });

  it('refuses a NUL character in the URL with a 400 before a CSV export starts streaming (Postgres cut the download mid-answer)', async () => {
    const owner = await registerOwner(t);
    const res = await t.request('GET', '/pharmacy/prescriptions.csv?patient=a%00b', { token: owner.token });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([{ code: 'VALIDATION_ERROR', field: 'url', message: 'must not contain a NUL character (%00)' }]);
    // Also on a route that takes no input at all, whose OpenAPI document now lists the 400 (seed 21 found it missing).
    const ping = await t.request('GET', '/sync/ping?zzz=%00', { token: owner.token });
    expect(ping.status, ping.text).toBe(400);
  });

  it('answers a NUL character in a JSON text with a 400 on Postgres, which cannot store it (it answered 500); SQLite keeps it', async () => {
    const owner = await registerOwner(t);
    const res = await t.request('POST', '/suppliers', { token: owner.token, body: { name: 'Azam\u0000 Ltd' } });
    if (t.dialect === 'postgres') {
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors).toEqual([
        { code: 'VALIDATION_ERROR', message: 'a text holds a NUL character (\\u0000), which the server cannot store' },
      ]);
    } else expect(res.status, res.text).toBe(200);
  });
});

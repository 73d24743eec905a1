/**
 * Idempotency-Key on every creating route (issue 18), not only the money routes: the same key and
 * body replay the first answer and create nothing more; another body under the key is refused; a
 * request that failed frees its key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneIdempotencyKeys } from '../../server/src/lib/idempotency.js';
import { registerOwner, type Session, uniquePhone } from '../setup/factories.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

describe('Idempotency-Key on creating routes', () => {
  let t: TestApp;
  let owner: Session;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerOwner(t);
  });
  afterAll(() => t.close());

  const post = (path: string, key: string, body: unknown) =>
    t.request('POST', path, { token: owner.token, body, headers: { 'idempotency-key': key } });
  const count = async (path: string) => {
    const res = await t.request('GET', path, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    return (res.body.meta?.total as number | undefined) ?? (res.body.data.items ?? res.body.data).length;
  };

  const routes: Array<{ name: string; path: string; list: string; body: () => Record<string, unknown>; other: Record<string, unknown> }> = [
    {
      name: 'customers',
      path: '/customers',
      list: '/customers',
      body: () => ({ name: 'Neema', phone: uniquePhone() }),
      other: { name: 'Baraka' },
    },
    { name: 'suppliers', path: '/suppliers', list: '/suppliers', body: () => ({ name: 'Bakhresa' }), other: { name: 'Azam' } },
    {
      name: 'products',
      path: '/inventory/products',
      list: '/inventory/products',
      body: () => ({ name: 'Soda', selling_price: 1000, stock: 5 }),
      other: { name: 'Maji', selling_price: 500 },
    },
    {
      name: 'categories',
      path: '/inventory/categories',
      list: '/inventory/categories',
      body: () => ({ name: 'Drinks' }),
      other: { name: 'Food' },
    },
    {
      name: 'expenses',
      path: '/expenses',
      list: '/expenses',
      body: () => ({ title: 'Rent', category: 'Rent', amount: 250000 }),
      other: { title: 'Water', category: 'Utilities', amount: 5000 },
    },
    {
      name: 'notes',
      path: '/notebook',
      list: '/notebook',
      body: () => ({ title: 'Orders', content: 'Call Bakhresa' }),
      other: { title: 'Other' },
    },
  ];

  for (const r of routes) {
    it(`POST ${r.path} twice with one key creates one ${r.name} and replays the first answer; another body under the key is refused`, async () => {
      const before = await count(r.list);
      const key = `create-${r.name}`;
      const body = r.body();
      const first = await post(r.path, key, body);
      expect(first.status, first.text).toBeLessThan(300);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await post(r.path, key, body);
      expect(again.status).toBe(first.status);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.data).toEqual(first.body.data);
      expect(await count(r.list)).toBe(before + 1);

      const other = await post(r.path, key, r.other);
      expect(other.status, other.text).toBe(422);
      expect(other.body.errors[0]).toMatchObject({ code: 'IDEMPOTENCY_MISMATCH' });
      expect(await count(r.list)).toBe(before + 1);
    });
  }

  it('refuses a key used on another path, and frees the key of a request that failed so a corrected one may use it', async () => {
    const taken = uniquePhone();
    expect((await post('/customers', 'first-customer', { name: 'Asha', phone: taken })).status).toBe(200);
    expect((await post('/suppliers', 'first-customer', { name: 'Asha', phone: taken })).body.errors[0].code).toBe('IDEMPOTENCY_MISMATCH');

    const clash = await post('/customers', 'retry-me', { name: 'Juma', phone: taken });
    expect(clash.status, clash.text).toBe(409);
    const fixed = await post('/customers', 'retry-me', { name: 'Juma', phone: uniquePhone() });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await post('/customers', 'retry-me', { name: 'Juma', phone: taken })).body.errors[0].code).toBe('IDEMPOTENCY_MISMATCH');
  });

  it('refuses a blank key as an invalid header, creating nothing', async () => {
    const before = await count('/suppliers');
    const res = await post('/suppliers', '', { name: 'Blank' });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'VALIDATION_ERROR', field: 'idempotency-key' });
    expect(await count('/suppliers')).toBe(before);
  });

  it('replays a stock adjustment instead of applying it twice', async () => {
    const product = (
      await t.request('POST', '/inventory/products', { token: owner.token, body: { name: 'Sukari', selling_price: 3000, stock: 10 } })
    ).body.data.id;
    const adjust = () => post(`/inventory/products/${product}/adjust`, 'adjust-once', { qty_change: 5, reason: 'received' });
    expect((await adjust()).body.data.stock).toBe(15);
    const again = await adjust();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.stock).toBe(15);
    expect((await t.request('GET', `/inventory/products/${product}`, { token: owner.token })).body.data.stock).toBe(15);
  });

  it('documents the header on every creating route that honours it', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const header = (path: string) =>
      (doc.paths[path].post.parameters ?? []).some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key');
    for (const r of routes) expect(header(r.path), r.path).toBe(true);
    expect(header('/inventory/products/{id}/adjust')).toBe(true);
    expect(header('/accounts/switch-store')).toBe(false);
  });

  it('forgets a key after IDEMPOTENCY_RETENTION_HOURS: the hourly prune removes it, and the key then creates anew', async () => {
    // The clock moves by days: sign in again each time, the same user (keys are the user's).
    const as = async (key: string, body: unknown) => {
      const token = (await t.request('POST', '/auth/login', { body: { identifier: owner.phone, password: owner.password } })).body.data
        .access_token as string;
      return t.request('POST', '/customers', { token, body, headers: { 'idempotency-key': key } });
    };
    const body = { name: 'Mama Zawadi', phone: uniquePhone() };
    const first = await as('prune-key-1', body);
    expect(first.status, first.text).toBe(200);
    t.clock.advance(167 * 3_600_000);
    expect(await pruneIdempotencyKeys(t.deps)).toBe(0);
    const replay = await as('prune-key-1', body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);

    t.clock.advance(2 * 3_600_000);
    const keptBody = { name: 'Kept', phone: uniquePhone() };
    expect((await as('prune-key-keep', keptBody)).status).toBe(200);
    const keys = async () => (await t.deps.db.selectFrom('idempotency_keys').select('key').execute()).map((r) => r.key).sort();
    const before = await keys();
    // Every key of this file's earlier tests is as old as prune-key-1: all go, the younger one stays.
    expect(await pruneIdempotencyKeys(t.deps)).toBe(before.length - 1);
    expect(await keys()).toEqual(['prune-key-keep']);
    // Forgotten: the same key and body are a new request now; the phone is taken, so it is refused, not replayed.
    const after = await as('prune-key-1', body);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
    expect(after.status, after.text).toBe(409);
    // The younger key is still replayed.
    expect((await as('prune-key-keep', keptBody)).headers.get('idempotent-replayed')).toBe('true');
  });
});

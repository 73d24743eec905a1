/**
 * The per-user request limit is keyed by the signed-in user (the access token's `sub`), so a till
 * signed in as staff counts against that staff member's own bucket, never the owner's, and the
 * other way round. The limiter's window runs on the wall clock: Date is frozen so that the
 * `Retry-After` it answers is exact.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStaff } from '../../test/setup/factories.js';
import type { ApiResponse } from '../../test/setup/test-app.js';
import { type Harness, seedShop, tillServer } from './harness.js';

const LIMIT = 20;

describe('till: rate limits per signed-in user', () => {
  const server = tillServer({ config: { RATE_LIMIT_USER_PER_MIN: LIMIT } });
  let h: Harness;
  beforeAll(() => void (h = server.h));
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() }));
  afterEach(() => vi.useRealTimers());

  const me = (token: string) => h.t.request('GET', '/accounts/me', { token });
  const limitOf = (r: ApiResponse) => ({
    status: r.status,
    limit: r.headers.get('ratelimit-limit'),
    remaining: r.headers.get('ratelimit-remaining'),
  });
  /** Use up a user's window with REST calls; answers the refusal that follows. */
  async function exhaust(token: string): Promise<ApiResponse> {
    const first = await me(token);
    const left = Number(first.headers.get('ratelimit-remaining'));
    expect(left).toBeGreaterThan(0);
    const answers = [];
    for (let i = 0; i < left; i++) answers.push(limitOf(await me(token)));
    expect(answers.at(-1)).toEqual({ status: 200, limit: String(LIMIT), remaining: '0' });
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const refused = await me(token);
    expect(limitOf(refused)).toEqual({ status: 429, limit: String(LIMIT), remaining: '0' });
    expect(refused.body.errors).toEqual([{ code: 'RATE_LIMITED', message: 'too many requests; try again later' }]);
    // A fixed one-minute window, opened by the first request; the clock has not moved since.
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit-reset')).toBe('60');
    return refused;
  }
  /** Requests the till made to signed-in routes since `from` (sign-in and refresh are limited apart). */
  const tillRequests = (from: number) => h.net.calls.slice(from).filter((c) => !c.startsWith('POST /auth/')).length;

  it('lets a staff till sync while its owner is rate-limited, on the staff member’s own count', async () => {
    const shop = await seedShop(h);
    const cashier = await createStaff(h.t, shop.owner);
    await exhaust(shop.owner.token);

    const from = h.net.calls.length;
    const till = await server.till();
    await till.login(cashier.phone, cashier.password);
    expect(await till.syncNow()).toMatchObject({ bootstrapped: true });
    await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    expect(await till.syncNow()).toMatchObject({ pushed: 1 });
    const used = tillRequests(from);
    expect(used).toBeGreaterThan(3);
    // The cashier's count: 1 to set their password (createStaff), the till's, and this one.
    expect(limitOf(await me(cashier.token))).toEqual({ status: 200, limit: String(LIMIT), remaining: String(LIMIT - 1 - used - 1) });
    // The owner is still refused.
    expect((await me(shop.owner.token)).status).toBe(429);
  });

  it('leaves the owner unlimited while a staff till is rate-limited, and the till waits out Retry-After', async () => {
    const shop = await seedShop(h);
    const cashier = await createStaff(h.t, shop.owner);
    const till = await server.till({ autoSync: true, realtime: false, syncIntervalMs: 600_000, random: () => 0 });
    await till.login(cashier.phone, cashier.password);
    await till.whenSynced();
    await till.syncNow();
    const ownerBefore = Number((await me(shop.owner.token)).headers.get('ratelimit-remaining'));

    await exhaust(cashier.token);
    await till.sell({ lines: [{ product_id: shop.unga.id, qty: 1 }], payment_method: 'Cash' });
    const err = await till.syncNow().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 60 });
    // The next automatic attempt waits the server's minute, not the 0.5 s its backoff would say.
    expect(till.status()).toMatchObject({ online: true, pending: 1, lastError: { code: 'RATE_LIMITED' } });
    expect(Date.parse(till.status().nextSyncAt!)).toBe(h.t.clock.now() + 60_000);
    // A sale meanwhile is queued, and its sync waits for that retry rather than being refused again.
    const from = h.net.calls.length;
    await till.sell({ lines: [{ product_id: shop.rice.id, qty: 1 }], payment_method: 'Cash' });
    await new Promise((r) => setTimeout(r, 200));
    expect(h.net.calls.slice(from)).toEqual([]);
    expect(till.status()).toMatchObject({ pending: 2, syncing: false });

    // The owner's count moved by their own request only.
    expect(limitOf(await me(shop.owner.token))).toEqual({ status: 200, limit: String(LIMIT), remaining: String(ownerBefore - 1) });
  });
});

/** The till's websocket on the server's close codes: 4001 (token expired) refreshes and reconnects; 4003 (session revoked) asks for a login and selling goes on. */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, seedShop, signIn, tillServer, until } from './harness.js';

describe('till: websocket close codes', () => {
  const server = tillServer({ realtime: true });
  let h: Harness;
  beforeAll(() => void (h = server.h));
  const live = () => server.till({ autoSync: true, syncIntervalMs: 600_000, backoff: { baseMs: 20, maxMs: 100 } });

  it('4001: the token expired: the till refreshes it and the socket comes back', async () => {
    const shop = await seedShop(h);
    const t = await live();
    const states: boolean[] = [];
    await signIn(t, shop);
    await until(() => t.status().live, 5000, 'socket open');
    t.on('status', (s) => states.push(s.live));
    const from = h.net.calls.length;
    h.t.clock.advance(h.t.config.ACCESS_TOKEN_TTL * 1000 + 1000);
    await until(() => states.includes(false), 5000, 'the server closing the socket');
    await until(() => t.status().live, 5000, 'socket open again');
    expect(h.net.calls.slice(from).filter((c) => c === 'POST /auth/refresh')).toHaveLength(1);
    expect(t.status()).toMatchObject({ live: true, authRequired: false });
  });

  it('4003: the password was changed elsewhere: the till asks for a login, keeps selling, and syncs once signed in again', async () => {
    const shop = await seedShop(h);
    const t = await live();
    await signIn(t, shop);
    await until(() => t.status().live && t.status().bootstrapped, 5000, 'socket open, shop loaded');
    const asked: string[] = [];
    t.on('auth-required', ({ reason }) => asked.push(reason));
    const newPassword = 'mwanza2027';
    const res = await h.t.request('PATCH', '/accounts/me', {
      token: shop.owner.token,
      body: { password: newPassword, current_password: shop.owner.password },
    });
    expect(res.status, res.text).toBe(200);
    await until(() => asked.length > 0, 5000, 'auth-required');
    expect(t.status()).toMatchObject({ live: false, authRequired: true });

    const sale = await t.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    await until(() => t.status().pending === 1, 2000, 'the sale queued');
    await t.login(shop.owner.phone, newPassword);
    await until(() => t.status().live && t.status().pending === 0, 5000, 'socket back, queue pushed');
    expect((await t.transaction(sale.id))?.sync_state).toBe('synced');
  });
});

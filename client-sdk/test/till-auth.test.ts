import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn, e164, lastMessage, uniquePhone } from '../../test/setup/factories.js';
import { DukaApiError } from '@duka/client-sdk';
import { type Harness, openTill, seedShop, signIn, startServer } from './harness.js';

const MIN = 60_000;

describe('till: sign-in and tokens', () => {
  let h: Harness;
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-auth-'));
  beforeAll(async () => (h = await startServer()));
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const refreshes = (from: number) => h.net.calls.slice(from).filter((c) => c === 'POST /auth/refresh').length;

  it('keeps its tokens in the replica: a restarted till is still signed in', async () => {
    const shop = await seedShop(h);
    const file = path.join(dir, 'till.db');
    const first = await openTill(h, { dbPath: file });
    const user = await first.login(shop.owner.phone, shop.owner.password);
    expect(user).toMatchObject({
      role: 'owner',
      first_name: 'Asha',
      perms: ['refund', 'discount', 'reports', 'pharmacy', 'credit', 'stock', 'suppliers'],
    });
    expect(first.status().authRequired).toBe(false);
    await first.close();
    const again = await openTill(h, { dbPath: file });
    expect(again.status().authRequired).toBe(false);
    expect((await again.syncNow()).bootstrapped).toBe(true);
    expect(await again.user()).toMatchObject({ id: user.id });
    await again.close();
  });

  it('refuses a wrong password with the server’s code and stays signed out', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    const err = await till.login(shop.owner.phone, 'wrong-password-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DukaApiError);
    expect(err).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(till.status().authRequired).toBe(true);
    await till.close();
  });

  it('signs in with a texted code', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    await till.requestOtp(shop.owner.phone);
    await h.t.deps.afterAnswer.idle(); // the code is sent after the answer
    const code = codeIn((await lastMessage(h.t, e164(shop.owner.phone)))!.body);
    expect(await till.loginWithOtp(shop.owner.phone, code)).toMatchObject({ role: 'owner' });
    expect((await till.syncNow()).bootstrapped).toBe(true);
    await till.close();
  });

  it('refreshes shortly before the access token expires, rotating the refresh token', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    await signIn(till, shop);
    await till.syncNow();
    const from = h.net.calls.length;
    h.t.clock.advance(14.5 * MIN);
    await till.syncNow();
    expect(refreshes(from)).toBe(1);
    expect(h.net.calls.slice(from)[0]).toBe('POST /auth/refresh');
    await till.syncNow();
    expect(refreshes(from)).toBe(1);
    await till.close();
  });

  it('stays signed in when the answer to a refresh is lost on the way back', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    const asked: string[] = [];
    till.on('auth-required', ({ reason }) => asked.push(reason));
    await signIn(till, shop);
    await till.syncNow();
    h.t.clock.advance(14.5 * MIN);
    // The server rotates the refresh token, but the till never hears of it.
    h.net.loseReplyTo = '/auth/refresh';
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'NETWORK' });
    h.t.clock.advance(2_000);
    await till.syncNow();
    expect(asked).toEqual([]);
    expect(till.status()).toMatchObject({ authRequired: false, lastError: null });
    await till.close();
  });

  it('signs out on the server and locally; the queue stays with the device', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    await signIn(till, shop);
    await till.syncNow();
    await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    await till.logout();
    expect(till.status()).toMatchObject({ authRequired: true, pending: 1 });
    await expect(till.syncNow()).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    await signIn(till, shop);
    expect((await till.syncNow()).pushed).toBe(1);
    await till.close();
  });

  it('signs a new user in with the temporary password, sets their own, then syncs and keeps only the new one for offline sign-in', async () => {
    const shop = await seedShop(h);
    const phone = uniquePhone();
    const added = await h.t.request('POST', '/accounts/users', {
      token: shop.owner.token,
      body: { first_name: 'Neema', last_name: 'Mushi', phone, role: 'staff' },
    });
    expect(added.status, added.text).toBe(200);
    const temporary = (await lastMessage(h.t, e164(phone)))!.body.match(/temporary password (\S+),/)![1]!;
    const till = await openTill(h);
    const user = await till.login(phone, temporary);
    expect(user).toMatchObject({ id: added.body.data.id, password_change_required: true });
    // The session may do nothing else yet: the server says so, and the till keeps the user to ask for the password.
    await expect(till.syncNow()).rejects.toMatchObject({ status: 403, code: 'PASSWORD_CHANGE_REQUIRED' });
    expect(await till.user()).toMatchObject({ password_change_required: true });

    await expect(till.setPassword(temporary)).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    const settled = await till.setPassword('Mwanza2026');
    expect(settled.password_change_required).toBeUndefined();
    expect(await till.user()).not.toHaveProperty('password_change_required');
    expect((await till.syncNow()).bootstrapped).toBe(true);
    await till.sell({ lines: [{ product_id: shop.soda.id, qty: 1 }], payment_method: 'Cash' });
    expect((await till.syncNow()).pushed).toBe(1);

    await till.logout();
    await expect(till.loginOffline(phone, temporary)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await till.loginOffline(phone, 'Mwanza2026')).toMatchObject({ id: added.body.data.id });
    await till.close();
  });
});

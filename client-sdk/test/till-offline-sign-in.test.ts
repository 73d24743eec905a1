import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TillError } from '@duka/client-sdk';
import { type Harness, openTill, seedShop, serverView, startServer, until } from './harness.js';

describe('till: signing in again without the network', () => {
  let h: Harness;
  beforeAll(async () => (h = await startServer()));
  afterAll(async () => h.close());

  it('checks the password against the till’s own verifier, sends it nowhere, and syncs after an online sign-in', async () => {
    const shop = await seedShop(h);
    const till = await openTill(h);
    await till.login(shop.owner.phone, shop.owner.password);
    await till.syncNow();
    await till.logout();
    expect(till.status().authRequired).toBe(true);

    h.net.offline = true;
    const from = h.net.calls.length;
    // The phone typed with spaces is the same account; a wrong password and an account never seen here are refused.
    const wrong = await till.loginOffline(shop.owner.phone, 'not-the-password-9').catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(TillError);
    expect(wrong).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await till.loginOffline('+255 700 000 000', shop.owner.password).catch((e: unknown) => (e as TillError).code)).toBe(
      'INVALID_CREDENTIALS',
    );
    const spaced = shop.owner.phone.replace(/(\d{3})(?=\d)/g, '$1 ');
    const user = await till.loginOffline(spaced, shop.owner.password);
    expect(user).toMatchObject({ role: 'owner', first_name: 'Asha' });
    expect(await till.user()).toMatchObject({ id: user.id });
    expect(h.net.calls.length).toBe(from); // nothing was sent anywhere
    expect(till.status().authRequired).toBe(true);

    const sale = await till.sell({ lines: [{ product_id: shop.soda.id, qty: 2 }], payment_method: 'Cash' });
    await until(() => till.status().pending === 1, 5000, 'the sale queued');
    h.net.offline = false;
    await till.syncNow().catch(() => undefined); // no tokens: the sale waits
    expect(till.status().pending).toBe(1);
    await till.login(shop.owner.phone, shop.owner.password);
    await till.syncNow();
    expect(till.status().pending).toBe(0);
    const { items } = await (await serverView(h, shop)).transactions();
    expect(items.filter((t) => t.id === sale.id)).toMatchObject([{ total: 2000, cashier_id: user.id }]);
    await till.close();
  });

  it('keeps the verifier on the till it signed in on: another till of the shop cannot sign that account in offline', async () => {
    h.net.offline = false;
    const shop = await seedShop(h);
    const till = await openTill(h);
    await till.login(shop.owner.phone, shop.owner.password);
    const other = await openTill(h);
    expect(await other.loginOffline(shop.owner.phone, shop.owner.password).catch((e: unknown) => (e as TillError).code)).toBe(
      'INVALID_CREDENTIALS',
    );
    await Promise.all([till.close(), other.close()]);
  });
});

/**
 * A sale's `source` at the browser till (docs/pos.md "How a sale was rung up"): `online` only when
 * the till reached the server as the sale was rung up. Three sales in a real Chromium: one with the
 * server answering; one the moment the server went out of reach with the browser still saying it
 * has a network (no `offline` event, no request failed yet); one after the browser lost its network.
 * Synced, the server says online, offline, offline.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { charge, expectPending, openApp, scan, signIn, startShop, type Shop } from './browser.js';

const SOAP = { name: 'Sabuni', barcode: '6161100000031', selling_price: 1500, stock: 50 };

async function sellOne(page: Page): Promise<string> {
  await scan(page, SOAP.barcode);
  await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
  return (await charge(page, 'Cash')).id;
}

describe('the browser till: how a sale was rung up', () => {
  let shop: Shop;
  let owner: Session;

  beforeAll(async () => {
    shop = await startShop();
    owner = await registerOwner(shop.t);
    const res = await shop.t.request('POST', '/inventory/products', { token: owner.token, body: SOAP });
    expect(res.status, res.text).toBe(200);
  }, 120_000);
  afterAll(() => shop?.close());

  it('says online only for the sale whose till reached the server', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await expectPending(page, 0, 30_000);
    const reached = await sellOne(page);
    await expectPending(page, 0, 30_000);

    // The server out of reach, the browser none the wiser: the till still says online until a request fails.
    await context.route(`${shop.origin}/api/**`, (route) => route.abort('connectionrefused'));
    expect(await page.getByTestId('status-online').getAttribute('data-online')).toBe('true');
    const unreached = await sellOne(page);
    await expectPending(page, 1);

    await context.setOffline(true);
    const noNetwork = await sellOne(page);
    await expectPending(page, 2);

    await context.unroute(`${shop.origin}/api/**`);
    await context.setOffline(false);
    await expectPending(page, 0, 30_000);
    const source = async (id: string) => (await shop.t.request('GET', `/pos/transactions/${id}`, { token: owner.token })).body.data.source;
    expect([await source(reached), await source(unreached), await source(noNetwork)]).toEqual(['online', 'offline', 'offline']);
    await context.close();
  }, 120_000);
});

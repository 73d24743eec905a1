/**
 * The back office's shell at 390×844 and 1280×800: an owner registers a shop and lands on Today;
 * a staff cashier signs in with the temporary password from the SMS, must choose their own first,
 * then sees only the screens their permissions open, and a screen they may not open says so.
 * Today moves as a till sells, with no reload; an owner of two stores sees each one's sales today
 * and opens the other's Today; the first load stays within its 300 kB budget.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e164, lastMessage, registerOwner, uniquePhone } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { menu, openOffice, signInOffice, VIEWPORTS, type Viewport } from './office.js';

describe('the back office shell', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  it.each(Object.keys(VIEWPORTS) as Viewport[])('registers an owner and opens Today, at %s size', async (viewport) => {
    const { context, page } = await openOffice(shop, viewport);
    await page.getByTestId('toggle-register').click();
    const phone = uniquePhone();
    await page.getByTestId('register-first_name').fill('Amina');
    await page.getByTestId('register-last_name').fill('Juma');
    await page.getByTestId('register-phone').fill(phone);
    await page.getByTestId('register-password').fill('Duka-2026!');
    await page.getByTestId('register-confirm_password').fill('Duka-2026?');
    await page.getByTestId('register-shop_name').fill(`Duka la Amina ${viewport}`);
    await page.getByTestId('register-submit').click();
    // The server's refusal, in the form, with the field it named marked; nothing typed is lost.
    await page.getByTestId('error').waitFor();
    expect(await page.getByTestId('register-phone').inputValue()).toBe(phone);
    await page.getByTestId('register-confirm_password').fill('Duka-2026!');
    await page.getByTestId('register-submit').click();
    await page.getByTestId('today-sales').waitFor();
    expect(await page.getByTestId('shop-name').textContent()).toBe(`Duka la Amina ${viewport}`);
    expect(await page.getByTestId('today-sales-value').textContent()).toBe('TSh 0');
    expect(await menu(page)).toContain('today');
    await context.close();
  });

  it.each(Object.keys(VIEWPORTS) as Viewport[])('shows a staff cashier only what their permissions open, at %s size', async (viewport) => {
    const owner = await registerOwner(shop.t);
    const phone = uniquePhone();
    const added = await shop.t.request('POST', '/accounts/users', {
      token: owner.token,
      body: { first_name: 'Juma', phone, role: 'staff' },
    });
    expect(added.status, added.text).toBe(200);
    const temporary = (await lastMessage(shop.t, e164(phone)))!.body.match(/temporary password (\S+),/)![1]!;
    const { context, page } = await openOffice(shop, viewport);
    await page.getByTestId('sign-in-identifier').fill(phone);
    await page.getByTestId('sign-in-password').fill(temporary);
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('set-password').waitFor();
    await page.getByTestId('new-password').fill('Cashier-2026!');
    await page.getByTestId('new-password-save').click();
    await page.getByTestId('today-sales').waitFor();
    // Today's sales figures are any signed-in user's; the owner's conflicts and the report-only mobile-money figures are not.
    expect(await page.getByTestId('today-conflicts').count()).toBe(0);
    expect(await page.getByTestId('today-mobile').count()).toBe(0);
    // What any signed-in user may read; Staff, Stores and Settings are the owner's.
    expect(await menu(page)).toEqual(['today', 'sales', 'products', 'stock', 'suppliers', 'customers', 'expenses', 'shifts', 'reports']);
    await page.goto(`${shop.origin}/office/staff`);
    await page.getByTestId('refused').waitFor();
    expect(await page.getByTestId('staff-search').count()).toBe(0);
    await context.close();
  });

  it.each(Object.keys(VIEWPORTS) as Viewport[])("moves Today's figures as the shop sells, with no reload, at %s size", async (viewport) => {
    const owner = await registerOwner(shop.t);
    const product = await shop.t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Unga 2kg', barcode: '6161100000123', selling_price: 3500, cost_price: 3000, stock: 6, reorder_point: 2 },
    });
    expect(product.status, product.text).toBe(200);
    const till = await shop.t.request('POST', '/sync/devices', {
      token: owner.token,
      body: { device_id: randomUUID(), name: 'Counter till' },
    });
    expect(till.status, till.text).toBe(200);
    const { context, page } = await openOffice(shop, viewport);
    await signInOffice(page, owner.phone, owner.password);
    await expect.poll(() => page.getByTestId('live').getAttribute('class')).toContain('on');
    await page.getByTestId('today-tills').waitFor();
    expect(await page.getByTestId('today-tills').textContent()).toContain(`Counter till (${till.body.data.till_code})`);
    expect(await page.getByTestId('today-sales-value').textContent()).toBe('TSh 0');

    const sale = await shop.t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: product.body.data.id, qty: 5 }], payment_method: 'Cash' },
    });
    expect(sale.status, sale.text).toBe(201);
    // 5 × 3,500 in cash, and the product now at 1, under its reorder point of 2.
    await expect.poll(() => page.getByTestId('today-sales-value').textContent(), { timeout: 10_000 }).toBe('TSh 17,500');
    expect(await page.getByTestId('today-cash-value').textContent()).toBe('TSh 17,500');
    await expect.poll(() => page.getByTestId('today-low-stock').textContent()).toContain('Unga 2kg');
    await context.close();
  });

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    "shows every store's sales today, and opens another store's Today, at %s size",
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const second = await shop.t.request('POST', '/stores', {
        token: owner.token,
        body: { name: 'Duka la Pili', code: 'PILI' },
      });
      expect(second.status, second.text).toBe(200);
      const product = await shop.t.request('POST', '/inventory/products', {
        token: owner.token,
        body: { name: 'Sukari 1kg', selling_price: 2800, cost_price: 2500, stock: 10 },
      });
      expect(product.status, product.text).toBe(200);
      const sell = async (token: string, qty: number) => {
        const sale = await shop.t.request('POST', '/pos/sale', {
          token,
          body: { lines: [{ product_id: product.body.data.id, qty }], payment_method: 'Cash' },
        });
        expect(sale.status, sale.text).toBe(201);
      };
      // 2 × 2,800 in the first store; stock put into the second, then 3 × 2,800 sold there.
      await sell(owner.token, 2);
      const moved = await shop.t.request('POST', '/accounts/switch-store', { token: owner.token, body: { store_id: second.body.data.id } });
      expect(moved.status, moved.text).toBe(200);
      const there = moved.body.data.tokens.access_token as string;
      const stocked = await shop.t.request('POST', `/inventory/products/${product.body.data.id}/adjust`, {
        token: there,
        body: { qty_change: 5, reason: 'opening stock' },
      });
      expect(stocked.status, stocked.text).toBe(200);
      await sell(there, 3);

      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await page.getByTestId('today-stores').waitFor();
      expect(await page.getByTestId('today-sales-value').textContent()).toBe('TSh 5,600');
      const row = (id: string) => page.locator(`[data-testid="today-store"][data-id="${id}"]`);
      expect(await row(second.body.data.id).getByTestId('today-store-sales').textContent()).toBe('TSh 8,400');
      expect(await page.getByTestId('today-stores-total').textContent()).toBe('TSh 14,000');
      // Opening the second store: the tiles are its own, and the header's switcher follows.
      await row(second.body.data.id).getByTestId('today-store-open').click();
      await expect.poll(() => page.getByTestId('today-sales-value').textContent()).toBe('TSh 8,400');
      expect(await page.getByTestId('store-switch').inputValue()).toBe(second.body.data.id);
      expect(await page.getByTestId('today-stores-total').textContent()).toBe('TSh 14,000');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await context.close();
    },
  );

  it('loads signed in to Today in at most 300 kB over the wire', async () => {
    const owner = await registerOwner(shop.t);
    const context = await shop.browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    const bytes = new Map<string, number>();
    page.on('requestfinished', async (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/office/')) bytes.set(url.pathname, (await request.sizes()).responseBodySize);
    });
    await page.goto(`${shop.origin}/office/`);
    await signInOffice(page, owner.phone, owner.password);
    await page.getByTestId('today-sales').waitFor();
    await page.waitForLoadState('networkidle');
    const total = [...bytes.values()].reduce((a, b) => a + b, 0);
    // The page, its script and styles, and Today's chunk, each as the server sent them.
    expect([...bytes.keys()].some((p) => p.endsWith('.js'))).toBe(true);
    expect(total, JSON.stringify(Object.fromEntries(bytes))).toBeLessThanOrEqual(300_000);
    await context.close();
  });
});

/**
 * The back office's shell at 390×844 and 1280×800: an owner registers a shop and lands on Today;
 * a staff cashier signs in with the temporary password from the SMS, must choose their own first,
 * then sees only the screens their permissions open, and a screen they may not open says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e164, lastMessage, registerOwner, uniquePhone } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { type Access, ROUTES } from '../src/access.js';
import { SCREENS } from '../src/ui/screens.js';
import { menu, openOffice, VIEWPORTS, type Viewport } from './office.js';

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
    // The menu: the screens whose route any signed-in user may call, none that needs a permission or the owner.
    const open = SCREENS.filter((s) => {
      const access: Access = ROUTES[s.route];
      return access.level === 'bearer' && !('permission' in access);
    });
    expect(await menu(page)).toEqual(open.map((s) => s.path || 'today'));
    await context.close();
  });
});

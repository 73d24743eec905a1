/**
 * Settings at 390×844 and 1280×800: the owner adds a mobile-money collection account with its
 * secret (after saving and after a reload the secret is nowhere in the page, and the server holds
 * it), renames the shop (the header follows), and retires a till registered through the API (the
 * list marks it, and the API then refuses that till's push). The shop's own SMS account: the
 * provider and sender saved, its key write-only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { goTo, openOffice, signInOffice, VIEWPORTS, type Viewport } from './office.js';

describe('the back office settings', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'keeps secrets write-only, renames the shop and retires a till, at %s size',
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const till = randomUUID();
      const registered = await shop.t.request('POST', '/sync/devices', {
        token: owner.token,
        body: { device_id: till, name: 'Counter till' },
      });
      expect(registered.status, registered.text).toBe(200);

      const { context, page } = await openOffice(shop, viewport);
      page.on('dialog', (d) => void d.accept());
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'settings');

      // Mobile money: the secret goes in and never comes back.
      const secret = `sekret-${viewport}-${randomUUID()}`;
      await page.getByTestId('mm-add').locator('summary').click();
      await page.getByTestId('mm-label').fill('M-Pesa Lipa');
      await page.getByTestId('mm-appName').fill('Duka');
      await page.getByTestId('mm-clientId').fill('client-0042');
      await page.getByTestId('mm-clientSecret').fill(secret);
      await page.getByTestId('mm-apiKey').fill(`key-${secret}`);
      await page.getByTestId('mm-save').click();
      await page.getByTestId('mm-key-set').waitFor();
      expect(await page.getByTestId('mm-key-set').textContent()).toBe('key set (…0042)');
      const leaks = async () => {
        const values = await page.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
        return (await page.content()).includes(secret) || values.some((v) => v.includes(secret));
      };
      expect(await leaks()).toBe(false);
      await page.reload();
      await page.getByTestId('mm-key-set').waitFor();
      expect(await leaks()).toBe(false);
      const accounts = await shop.t.request('GET', '/payments/collection-accounts', { token: owner.token });
      expect(accounts.body.data).toMatchObject([{ label: 'M-Pesa Lipa', credentials_set: true, credentials_hint: '0042' }]);
      expect(JSON.stringify(accounts.body)).not.toContain(secret);

      // Renaming the shop: the header follows.
      const name = `Duka Jipya ${viewport}`;
      await page.getByTestId('org-name').fill(name);
      await page.getByTestId('org-name').press('Enter');
      await page.getByTestId('org-saved').waitFor();
      expect(await page.getByTestId('shop-name').textContent()).toBe(name);

      // Devices: the till is listed, retired, and then refused.
      const row = page.locator(`[data-testid="devices-row"][data-id="${till}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('T1');
      await row.getByTestId('device-retire').click();
      await row.getByTestId('device-retired').waitFor();
      const push = await shop.t.request('POST', '/sync/push', {
        token: owner.token,
        body: {
          device_id: till,
          mutations: [
            {
              id: randomUUID(),
              seq: 1,
              type: 'sale.create',
              created_at: new Date().toISOString(),
              payload: {
                id: randomUUID(),
                client_receipt_number: 'X-T1-1',
                lines: [{ product_id: randomUUID(), qty: 1, unit_price: 1000 }],
                payment_method: 'Cash',
              },
            },
          ],
        },
      });
      expect(push.status, push.text).toBe(403);
      expect(push.body.errors[0].code).toBe('DEVICE_RETIRED');

      // Nothing wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await context.close();
    },
  );

  it("sets the shop's own SMS account: the provider and sender saved, the key held and never shown", async () => {
    const owner = await registerOwner(shop.t);
    const { context, page } = await openOffice(shop, 'desk');
    await signInOffice(page, owner.phone, owner.password);
    await goTo(page, 'settings');
    const form = page.getByTestId('sms-form');
    await form.waitFor();
    expect(await page.getByTestId('sms-key-state').textContent()).toBe('not set');
    const key = `beem-key-${randomUUID()}`;
    await form.locator('select[name=sms_provider]').selectOption('beem');
    await form.locator('input[name=sms_sender_id]').fill('DUKA');
    await form.locator('input[name=sms_api_key]').fill(key);
    await form.locator('input[name=sms_api_secret]').fill(`secret-${key}`);
    await form.locator('button[type=submit]').click();
    await page.getByTestId('sms-key-state').filter({ hasText: /^set$/ }).waitFor();
    const org = (await shop.t.request('GET', '/accounts/organisation', { token: owner.token })).body.data;
    expect(org).toMatchObject({ sms_provider: 'beem', sms_sender_id: 'DUKA', sms_api_key_set: true, sms_api_secret_set: true });
    await page.reload();
    await page.getByTestId('sms-form').waitFor();
    expect(await page.getByTestId('sms-form').locator('input[name=sms_sender_id]').inputValue()).toBe('DUKA');
    expect(await page.content()).not.toContain(key);
    expect(await page.getByTestId('sms-form').locator('input[name=sms_api_key]').inputValue()).toBe('');
    await context.close();
  });
});

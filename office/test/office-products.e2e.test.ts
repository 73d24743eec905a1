/**
 * Products in the back office at 390×844 and 1280×800: an owner adds a product with a barcode and
 * finds it by searching; imports a 500-row CSV with two bad rows, sees both rows' problems while
 * the server still has none of the 500, then imports the fixed file and the list says 500 more.
 * A cashier without the stock permission sees the products but neither Import nor an adjustment,
 * and a product's prices shown but not changeable (its name still is).
 * A barcode is read by the camera where the browser has BarcodeDetector, and typed where it has not.
 * A bad price is refused beside the price in the owner's language: English, then Swahili.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { goTo, openOffice, signInOffice, VIEWPORTS, type Viewport } from './office.js';

const HEADER = 'name,sku,barcode,category,selling_price,cost_price,stock,reorder_point,unit';

/** 500 products; `bad`: row 51 (the 50th product) priced "abc", row 302 repeating row 11's barcode. */
function catalogue(tag: string, bad: boolean): Buffer {
  const rows = Array.from({ length: 500 }, (_, i) => {
    const barcode = bad && i === 300 ? `${tag}000009` : `${tag}${String(i).padStart(6, '0')}`;
    const price = bad && i === 49 ? 'abc' : String(1000 + i);
    return [`Imported ${tag} ${i}`, `${tag}-${i}`, barcode, i % 2 ? 'Vinywaji' : 'Unga', price, '800', String(i % 5), '2', 'piece'].join(
      ',',
    );
  });
  return Buffer.from([HEADER, ...rows].join('\r\n'));
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe('the back office: products', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  const total = async (owner: Session) =>
    (await shop.t.request('GET', '/inventory/products?page_size=1', { token: owner.token })).body.meta.total as number;

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'adds a product with a barcode and imports 500 from a CSV, at %s size',
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'products');
      await page.getByTestId('products-empty').waitFor();

      // A product with a barcode, typed; the form submits with Enter.
      await page.getByTestId('product-new').click();
      await page.getByTestId('product-name').fill('Sukari Kilombero 1kg');
      await page.getByTestId('product-barcode').fill('6164001234567');
      await page.getByTestId('product-selling_price').fill('3200');
      await page.getByTestId('product-stock').fill('12');
      await page.getByTestId('product-stock').press('Enter');
      await page.getByTestId('product-title').waitFor();
      expect(await page.getByTestId('stock-now').textContent()).toContain('12');
      expect(await page.getByTestId('product-barcode').inputValue()).toBe('6164001234567');
      await page.getByRole('link', { name: /Back to products/ }).click();
      await page.getByTestId('product-search').fill('kilombero');
      await page.getByTestId('product-search').press('Enter');
      await page.getByTestId('products-row').first().waitFor();
      expect(await page.getByTestId('products-row').count()).toBe(1);
      expect(await page.getByTestId('products-row').textContent()).toContain('Sukari Kilombero 1kg');
      if (viewport === 'phone') expect(await noSidewaysScroll(page)).toBe(true);

      // The file with two bad rows: both named, Import disabled, nothing on the server.
      await page.getByTestId('product-import').click();
      const tag = viewport === 'phone' ? 'P' : 'D';
      await page.getByTestId('import-file').setInputFiles({ name: 'catalogue.csv', mimeType: 'text/csv', buffer: catalogue(tag, true) });
      await page.getByTestId('import-errors').waitFor();
      const fields = await page.getByTestId('import-error').evaluateAll((items) => items.map((li) => li.getAttribute('data-field')));
      expect(fields).toEqual(['rows[51].selling_price', 'rows[302].barcode']);
      expect(await page.getByTestId('import-errors').textContent()).toContain(`barcode ${tag}000009 is also on row 11`);
      expect(await page.getByTestId('import-go').isDisabled()).toBe(true);
      expect(await page.getByTestId('import-preview-row').count()).toBe(20);
      if (viewport === 'phone') expect(await noSidewaysScroll(page)).toBe(true);
      expect(await total(owner)).toBe(1);

      // Fixed: checked clean, imported whole.
      await page.getByTestId('import-file').setInputFiles({ name: 'catalogue.csv', mimeType: 'text/csv', buffer: catalogue(tag, false) });
      await page.getByTestId('import-summary').filter({ hasText: '500 ready' }).waitFor();
      expect(await page.getByTestId('import-errors').count()).toBe(0);
      await page.getByTestId('import-go').click();
      await page.getByTestId('import-done').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('import-done').textContent()).toBe('500 products imported.');
      expect(await total(owner)).toBe(501);

      await page.getByRole('link', { name: /Back to products/ }).click();
      await page.getByTestId('product-total').waitFor();
      expect(await page.getByTestId('product-total').getAttribute('data-total')).toBe('501');
      await context.close();
    },
  );

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    "shows a bad price refused beside the price in the owner's language, English then Swahili, at %s size",
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'products');
      await page.getByTestId('product-new').click();
      await page.getByTestId('product-name').fill('Chumvi 500g');
      await page.getByTestId('product-selling_price').fill('-500');
      await page.getByTestId('product-save').click();
      const price = page.getByTestId('error-selling_price');
      await price.waitFor();
      expect(await price.textContent()).toBe('must be at least 0');
      expect(await page.locator('[data-field="selling_price"]').getAttribute('class')).toBe('field invalid');

      // Kiswahili: the server words the same refusal in Swahili; what was typed is still there.
      await page.getByTestId('lang').click();
      await page.getByTestId('product-save').click();
      await price.filter({ hasText: 'lazima iwe angalau 0' }).waitFor();
      expect(await price.textContent()).toBe('lazima iwe angalau 0');
      expect(await page.getByTestId('error').locator('strong').textContent()).toBe('Baadhi ya ulichoandika kinahitaji kurekebishwa:');
      expect(await page.getByTestId('product-selling_price').inputValue()).toBe('-500');
      if (viewport === 'phone') expect(await noSidewaysScroll(page)).toBe(true);
      expect(await total(owner)).toBe(0);
      await context.close();
    },
  );

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'shows a cashier without the stock permission no import, no adjustment and no price change, at %s size',
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const made = await shop.t.request('POST', '/inventory/products', {
        token: owner.token,
        body: { name: 'Omo 1kg', selling_price: 4500, stock: 3 },
      });
      expect(made.status, made.text).toBe(200);
      const cashier = await createStaff(shop.t, owner);
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, cashier.phone, cashier.password);
      await goTo(page, 'products');
      await page.getByTestId('products-row').first().waitFor();
      expect(await page.getByTestId('product-import').count()).toBe(0);
      expect(await page.getByTestId('product-export').count()).toBe(1);
      await page.getByRole('link', { name: 'Omo 1kg' }).click();
      await page.getByTestId('stock-now').waitFor();
      expect(await page.getByTestId('stock-now').textContent()).toContain('3');
      expect(await page.getByTestId('adjust-form').count()).toBe(0);
      // The prices are shown, not changeable, and no deactivation is offered; the name is free.
      expect(await page.getByTestId('product-selling_price').isDisabled()).toBe(true);
      expect(await page.getByTestId('product-cost_price').isDisabled()).toBe(true);
      expect(await page.getByTestId('product-is_active').count()).toBe(0);
      await page.getByTestId('product-name').fill('Omo 1kg Blue');
      await page.getByTestId('product-save').click();
      await page.getByTestId('product-saved').waitFor();
      const kept = await shop.t.request('GET', `/inventory/products/${made.body.data.id}`, { token: owner.token });
      expect(kept.body.data).toMatchObject({ name: 'Omo 1kg Blue', selling_price: 4500, stock: 3, is_active: true });
      const refused = await shop.t.request('POST', '/inventory/products/import', {
        token: cashier.token,
        body: { csv: 'name\nSoap', dry_run: true },
      });
      expect(refused.status).toBe(403);
      await context.close();
    },
  );

  it('reads a barcode with the phone camera where the browser has BarcodeDetector, and offers no camera where it has not', async () => {
    const owner = await registerOwner(shop.t);
    const { context, page } = await openOffice(shop, 'phone');
    await signInOffice(page, owner.phone, owner.password);
    await goTo(page, 'products');
    await page.getByTestId('product-new').click();
    await page.getByTestId('product-name').waitFor();
    // Headless Chromium has no BarcodeDetector: the barcode is typed, no camera button.
    expect(await page.getByTestId('barcode-scan').count()).toBe(0);
    await context.close();

    // A browser that has one (as Chrome on Android does): a camera (a canvas's stream) and a detector that sees a code.
    const phone = await shop.browser.newContext({ viewport: VIEWPORTS.phone });
    await phone.addInitScript(() => {
      (globalThis as Record<string, unknown>).BarcodeDetector = class {
        async detect() {
          return [{ rawValue: '6164009876543' }];
        }
      };
      navigator.mediaDevices.getUserMedia = async () => {
        const canvas = document.createElement('canvas');
        const paint = () => canvas.getContext('2d')!.fillRect(0, 0, canvas.width, canvas.height);
        paint();
        setInterval(paint, 100);
        return canvas.captureStream(10);
      };
    });
    const scanning = await phone.newPage();
    await scanning.goto(`${shop.origin}/office/`);
    await signInOffice(scanning, owner.phone, owner.password);
    await goTo(scanning, 'products');
    await scanning.getByTestId('product-new').click();
    await scanning.getByTestId('barcode-scan').click();
    await expect.poll(() => scanning.getByTestId('product-barcode').inputValue()).toBe('6164009876543');
    await scanning.getByTestId('product-name').fill('Chai Bora 100g');
    await scanning.getByTestId('product-selling_price').fill('2500');
    await scanning.getByTestId('product-selling_price').press('Enter');
    await scanning.getByTestId('product-title').waitFor();
    const found = await shop.t.request('GET', '/inventory/products/barcode/6164009876543', { token: owner.token });
    expect(found.status, found.text).toBe(200);
    expect(found.body.data.name).toBe('Chai Bora 100g');
    await phone.close();
  });
});

/**
 * Pickers over a whole catalogue, at 390×844 and 1280×800: a shop of 150 products (imported in one
 * CSV call), where the owner picks the 150th by typing part of its name (by keyboard on a desk, by
 * a tap on a phone) and the 149th by typing its whole barcode (picked with no list), receives a
 * delivery of both (recorded for those products: the API says so), then sends the 150th to a second
 * store the same way. And the record forms (ui/record.ts): a supplier and a customer opened by
 * id show what the server holds, and their edit is saved.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, registerOwner, type Session } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { callAs, goTo, openOffice, pick, signInOffice, type Viewport, VIEWPORTS } from './office.js';

const HEADER = 'name,sku,barcode,category,selling_price,cost_price,stock,reorder_point,unit';
/** Product `i`'s barcode: a whole EAN-13, as a scanner types it. */
const barcode = (digit: number, i: number) => `6164${digit}${String(i).padStart(8, '0')}`;

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe('the back office: pickers over the whole catalogue, and record forms', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  const call = (owner: Session, method: string, path: string, body?: unknown) => callAs(shop, owner, method, path, body);
  const product = async (owner: Session, name: string) =>
    (await call(owner, 'GET', `/inventory/products?search=${encodeURIComponent(name)}`)).find((p: { name: string }) => p.name === name);

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'picks the 150th product by part of its name and the 149th by barcode, for a delivery and a transfer, at %s size',
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const tag = viewport === 'phone' ? 'P' : 'D';
      const digit = viewport === 'phone' ? 1 : 2;
      const rows = Array.from({ length: 150 }, (_, n) =>
        [`Bidhaa ${tag} ${n + 1}`, `${tag}-${n + 1}`, barcode(digit, n + 1), 'Jumla', '1000', '800', '0', '2', 'piece'].join(','),
      );
      const imported = await call(owner, 'POST', '/inventory/products/import', { csv: [HEADER, ...rows].join('\r\n') });
      expect(imported.created).toBe(150);
      const last = await product(owner, `Bidhaa ${tag} 150`);
      const before = await product(owner, `Bidhaa ${tag} 149`);
      const supplier = await call(owner, 'POST', '/suppliers', { name: `Bakhresa ${viewport}` });
      await addStore(shop.t, owner.orgId, `Kariakoo ${viewport}`);

      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'suppliers');
      await page.getByTestId('receive-delivery').click();
      await pick(page, 'delivery-supplier', 'bakh', supplier.id);

      // Part of the name: the one match offered; Enter takes it on a desk, a tap on a phone.
      const line = page.getByTestId('line-0-product');
      await line.fill(`${tag} 150`);
      const options = page.getByTestId('line-0-product-option');
      await page.locator(`[data-testid="line-0-product-option"][data-id="${last.id}"]`).waitFor();
      expect(await options.count()).toBe(1);
      if (viewport === 'phone') {
        expect(await noSidewaysScroll(page)).toBe(true);
        await options.click();
      } else {
        expect(await line.getAttribute('aria-activedescendant')).toBe(await options.getAttribute('id'));
        await line.press('Enter');
      }
      await page.locator(`[data-testid="line-0-product"][data-picked="${last.id}"]`).waitFor();
      expect(await line.inputValue()).toBe(`Bidhaa ${tag} 150`);
      expect(await page.getByTestId('line-0-cost').inputValue()).toBe('800');
      await page.getByTestId('line-0-qty').fill('5');

      // A whole barcode typed (as a scanner types it, Enter and all) picks its product with no list.
      await page.getByTestId('line-add').click();
      await page.getByTestId('line-1-product').pressSequentially(barcode(digit, 149), { delay: 5 });
      await page.getByTestId('line-1-product').press('Enter');
      await page.locator(`[data-testid="line-1-product"][data-picked="${before.id}"]`).waitFor();
      expect(await page.getByTestId('line-1-product-options').isVisible()).toBe(false);
      await page.getByTestId('line-1-qty').fill('3');
      await page.getByTestId('delivery-save').click();
      await page.getByTestId('supplier-page').waitFor();

      const [delivery] = await call(owner, 'GET', `/suppliers/${supplier.id}/deliveries`);
      const lines = delivery.lines.map((l: { product_id: string; qty: number }) => [l.product_id, Number(l.qty)]);
      expect(lines).toHaveLength(2);
      expect(lines).toEqual(
        expect.arrayContaining([
          [last.id, 5],
          [before.id, 3],
        ]),
      );
      expect((await call(owner, 'GET', `/inventory/products/${last.id}`)).stock).toBe(5);

      // The transfer form picks from the same catalogue; typing again undoes the choice, Escape closes the list.
      await goTo(page, 'stock');
      await page.getByTestId('transfer-new').click();
      await page.getByTestId('transfer-to').selectOption({ label: `Kariakoo ${viewport}` });
      await pick(page, 'transfer-0-product', `${tag} 150`, last.id);
      await page.getByTestId('transfer-0-product').fill(`${tag} 14`);
      await page.getByTestId('transfer-0-product-option').first().waitFor();
      await page.locator('[data-testid="transfer-0-product"][data-picked=""]').waitFor();
      await page.getByTestId('transfer-0-product').press('Escape');
      await page.getByTestId('transfer-0-product-options').waitFor({ state: 'hidden' });
      await pick(page, 'transfer-0-product', `${tag} 150`, last.id);
      await page.getByTestId('transfer-0-qty').fill('2');
      await page.getByTestId('transfer-send').click();
      await page.getByTestId('transfers-row').waitFor();
      expect((await call(owner, 'GET', `/inventory/products/${last.id}`)).stock).toBe(3);
      if (viewport === 'phone') expect(await noSidewaysScroll(page)).toBe(true);
      await context.close();
    },
  );

  it('opens a supplier and a customer by id with what the server holds, and saves their edits', async () => {
    const owner = await registerOwner(shop.t);
    const supplier = await call(owner, 'POST', '/suppliers', { name: 'Azam Mills', phone: '0713000222', payment_terms: 30 });
    const customer = await call(owner, 'POST', '/customers', { name: 'Bi. Amina', phone: '0713000333', credit_limit: 50000 });
    const { context, page } = await openOffice(shop, 'desk');
    await signInOffice(page, owner.phone, owner.password);

    await page.goto(`${shop.origin}/office/suppliers/${supplier.id}/edit`);
    await expect.poll(() => page.getByTestId('supplier-name').inputValue()).toBe('Azam Mills');
    expect(await page.getByTestId('supplier-payment_terms').inputValue()).toBe('30');
    await page.getByTestId('supplier-rep').fill('Juma');
    await page.getByTestId('supplier-rep').press('Enter');
    await page.getByTestId('supplier-page').waitFor();
    expect(await call(owner, 'GET', `/suppliers/${supplier.id}`)).toMatchObject({ name: 'Azam Mills', rep: 'Juma', payment_terms: 30 });

    await page.goto(`${shop.origin}/office/customers/${customer.id}/edit`);
    await expect.poll(() => page.getByTestId('customer-credit_limit').inputValue()).toBe('50000');
    await page.getByTestId('customer-credit_limit').fill('75000');
    await page.getByTestId('customer-save').click();
    await page.getByTestId('customer-page').waitFor();
    expect(await call(owner, 'GET', `/customers/${customer.id}`)).toMatchObject({ name: 'Bi. Amina', credit_limit: 75000 });
    await context.close();
  });
});

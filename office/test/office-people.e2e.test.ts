/**
 * Staff and sales in the back office, at 390×844 and 1280×800: the owner adds a cashier without
 * the refund permission; the cashier sets their own password in the till and sells; the owner
 * finds one of those sales in Sales by its receipt number and voids it with a reason; the cashier,
 * signed in to the back office, has no Staff in the menu, is refused /office/staff, and is offered
 * no Refund on their other sale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e164, lastMessage, registerOwner, type Session, uniquePhone } from '../../test/setup/factories.js';
import { charge, openApp, scan, type Shop, startShop } from '../../web/test/browser.js';
import { goTo, menu, openOffice, signInOffice, VIEWPORTS, type Viewport } from './office.js';

const CHAI = { name: 'Chai Bora 100g', barcode: '6161100000093', selling_price: 2500 };

describe('staff and sales in the back office', () => {
  let shop: Shop;
  let owner: Session;

  beforeAll(async () => {
    shop = await startShop({ apps: ['office', 'till'] });
    owner = await registerOwner(shop.t);
    const res = await shop.t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { ...CHAI, cost_price: 1500, stock: 40 },
    });
    expect(res.status, res.text).toBe(200);
  }, 180_000);
  afterAll(() => shop?.close());

  /** The cashier's first sign-in to the till with the SMS's temporary password: their own password set, then two cash sales. */
  async function sellOnTill(phone: string, temporary: string, password: string) {
    const { context, page } = await openApp(shop);
    await page.getByTestId('sign-in-identifier').fill(phone);
    await page.getByTestId('sign-in-password').fill(temporary);
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('set-password').waitFor({ timeout: 30_000 });
    await page.getByTestId('new-password').fill(password);
    await page.getByTestId('new-password-confirm').fill(password);
    await page.getByTestId('set-password-submit').click();
    await page.getByTestId('product-grid').waitFor({ timeout: 60_000 });
    const sales = [];
    for (let i = 0; i < 2; i++) {
      await scan(page, CHAI.barcode);
      await page.getByTestId('cart-line').waitFor();
      sales.push(await charge(page, 'Cash'));
    }
    // Both sales reach the server before the owner looks for them.
    await expect.poll(() => page.getByTestId('status-pending').getAttribute('data-pending'), { timeout: 20_000 }).toBe('0');
    await context.close();
    return sales;
  }

  async function findSale(page: Page, receipt: string) {
    await goTo(page, 'sales');
    await page.getByTestId('sale-search').fill(receipt);
    const open = page.getByTestId('sale-list').getByTestId('sale-open');
    await expect.poll(() => open.allTextContents(), { timeout: 10_000 }).toHaveLength(1);
    await open.click();
    await page.getByTestId('sale-detail').waitFor();
  }

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'adds a cashier who sells; the owner voids a sale; the cashier sees only theirs, at %s size',
    async (viewport) => {
      // The owner adds a cashier, the refund permission left off.
      const office = await openOffice(shop, viewport);
      await signInOffice(office.page, owner.phone, owner.password);
      await goTo(office.page, 'staff');
      await office.page.getByTestId('staff-add').click();
      const phone = uniquePhone();
      await office.page.getByTestId('staff-first_name').fill('Neema');
      await office.page.getByTestId('staff-last_name').fill(`Till ${viewport}`);
      await office.page.getByTestId('staff-phone').fill(phone);
      expect(await office.page.getByTestId('staff-can_refund').isChecked()).toBe(false);
      await office.page.getByTestId('staff-phone').press('Enter');
      await office.page.getByTestId('staff-detail').waitFor();
      expect(await office.page.getByTestId('notice').textContent()).toContain(e164(phone));
      expect(await office.page.getByTestId('perm-can_refund').isChecked()).toBe(false);
      const temporary = (await lastMessage(shop.t, e164(phone)))!.body.match(/temporary password (\S+),/)![1]!;

      // The cashier sells twice on the till.
      const password = `Neema-${viewport}-2026`;
      const [voided, kept] = await sellOnTill(phone, temporary, password);

      // The owner finds the first sale by its receipt number and voids it with a reason.
      await findSale(office.page, voided!.receipt);
      expect(await office.page.getByTestId('sale-status').first().textContent()).toBe('Paid');
      await office.page.getByTestId('sale-void').click();
      await office.page.getByTestId('void-reason').fill('customer changed their mind');
      await office.page.getByTestId('void-submit').click();
      await office.page.getByTestId('notice').waitFor();
      expect(await office.page.getByTestId('sale-status').first().textContent()).toBe('Void');
      expect(await office.page.getByTestId('void-reason').textContent()).toContain('customer changed their mind');
      const stored = await shop.t.db.db
        .selectFrom('transactions')
        .select(['status', 'void_reason'])
        .where('id', '=', voided!.id)
        .executeTakeFirst();
      expect(stored).toEqual({ status: 'void', void_reason: 'customer changed their mind' });
      expect(await office.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await office.context.close();

      // The cashier in the back office: no Staff, refused at /office/staff, no Refund on their paid sale.
      const cashier = await openOffice(shop, viewport);
      await signInOffice(cashier.page, phone, password);
      expect(await menu(cashier.page)).not.toContain('staff');
      expect(await menu(cashier.page)).toContain('sales');
      await cashier.page.goto(`${shop.origin}/office/staff`);
      await cashier.page.getByTestId('refused').waitFor();
      await findSale(cashier.page, kept!.receipt);
      expect(await cashier.page.getByTestId('sale-status').first().textContent()).toBe('Paid');
      await cashier.page.getByTestId('sale-reprint').waitFor();
      expect(await cashier.page.getByTestId('sale-refund').count()).toBe(0);
      await cashier.context.close();
    },
  );
});

/**
 * Staff and sales in the back office, at 390×844 and 1280×800: the owner adds a cashier without
 * the refund permission; the cashier sets their own password in the till and sells; the owner
 * finds one of those sales in Sales by its receipt number and voids it with a reason; the cashier,
 * signed in to the back office, has no Staff in the menu, is refused /office/staff, and is offered
 * no Refund on their other sale. Then the owner's other work there: a member's permissions, password
 * reset and deactivation; a store added (the server's refusal shown on its field), made busy and
 * deactivated; a closed shift's Z report, short in red; a sale refunded with a reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createStaff, e164, lastMessage, messageCount, registerOwner, type Session, uniquePhone } from '../../test/setup/factories.js';
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

  const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
  const call = async (method: string, path: string, body?: Record<string, unknown>) => {
    const res = await shop.t.request(method, path, { token: owner.token, ...(body ? { body } : {}) });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };

  it.each(Object.keys(VIEWPORTS) as Viewport[])('manages a member, a store, a shift and a refund, at %s size', async (viewport) => {
    const member = await createStaff(shop.t, owner, { first_name: 'Baraka', last_name: viewport });
    const { id: productId } = (await shop.t.db.db
      .selectFrom('products')
      .select('id')
      .where('barcode', '=', CHAI.barcode)
      .executeTakeFirst())!;
    const shift = await call('POST', '/pos/shifts', { opening_float: 10_000, till_number: `T-${viewport}` });
    await call('POST', '/pos/sale', { lines: [{ product_id: productId, qty: 1 }], payment_method: 'Cash' });
    await call('POST', `/pos/shifts/${shift.id}/close`, { counted: { Cash: 12_000 } }); // 12,500 expected: 500 short
    const toRefund = await call('POST', '/pos/sale', { lines: [{ product_id: productId, qty: 2 }], payment_method: 'Cash' });

    const { context, page } = await openOffice(shop, viewport);
    await signInOffice(page, owner.phone, owner.password);

    // A member: the refund permission given, a new temporary password texted, then deactivated.
    await goTo(page, 'staff');
    await page.getByTestId('staff-search').fill(member.phone);
    await page.locator(`[data-testid=staff-list-row][data-id="${member.user.id}"] [data-testid=staff-open]`).click();
    await page.getByTestId('perm-can_refund').check();
    await page.getByTestId('perm-save').click();
    await expect
      .poll(
        async () =>
          (await shop.t.db.db.selectFrom('users').select('can_refund').where('id', '=', member.user.id).executeTakeFirst())!.can_refund,
      )
      .toBe(1);
    const texts = await messageCount(shop.t, e164(member.phone));
    await page.getByTestId('staff-reset').click();
    await page.getByTestId('staff-reset-confirm').click();
    await page.getByTestId('notice').waitFor();
    expect(await messageCount(shop.t, e164(member.phone))).toBe(texts + 1);
    expect((await lastMessage(shop.t, e164(member.phone)))!.body).toContain('password was reset');
    await page.getByTestId('staff-deactivate').click();
    await page.getByTestId('staff-deactivate-confirm').click();
    await expect.poll(() => page.getByTestId('staff-detail-status').textContent()).toBe('Deactivated');
    expect(await noSidewaysScroll(page)).toBe(true);

    // A store: the server's refusal on its field, the input kept; then busy, then deactivated.
    await goTo(page, 'stores');
    await page.getByTestId('store-add').click();
    await page.getByTestId('store-name').fill(`Tawi ${viewport}`);
    await page.getByTestId('store-open_hours').fill('7-21');
    await page.getByTestId('store-name').press('Enter');
    await page.getByTestId('error-open_hours').waitFor();
    expect(await page.getByTestId('store-name').inputValue()).toBe(`Tawi ${viewport}`);
    await page.getByTestId('store-open_hours').fill('07:00-21:00');
    await page.getByTestId('store-save').click();
    await page.getByTestId('store-detail').waitFor();
    await page.getByTestId('store-status').selectOption('busy');
    await page.getByTestId('store-status-save').click();
    await expect.poll(() => page.getByTestId('store-detail-status').textContent()).toContain('Busy');
    await page.getByTestId('store-deactivate').click();
    await page.getByTestId('store-deactivate-confirm').click();
    await expect.poll(() => page.getByTestId('store-detail-status').textContent()).toContain('Deactivated');
    expect(await noSidewaysScroll(page)).toBe(true);

    // The closed shift: short, in red, on the list and in its Z report.
    await goTo(page, 'shifts');
    const row = page.locator(`[data-testid=shift-list-row][data-id="${shift.id}"]`);
    expect(await row.getByTestId('over-short').getAttribute('class')).toBe('error');
    await row.getByTestId('shift-open').click();
    await page.getByTestId('shift-report').waitFor();
    expect(await page.locator('h1').textContent()).toBe('Z report (at close)');
    const total = page.locator(`[data-testid=shift-methods-row][data-id=total]`);
    expect(await total.getByTestId('over-short').getAttribute('class')).toBe('error');
    expect(await noSidewaysScroll(page)).toBe(true);

    // A sale refunded with a reason.
    await findSale(page, toRefund.receipt_number);
    await page.getByTestId('sale-refund').click();
    await page.getByTestId('refund-reason').fill('wrong size');
    await page.getByTestId('refund-submit').click();
    await expect.poll(() => page.getByTestId('sale-status').first().textContent()).toBe('Refunded');
    expect(await noSidewaysScroll(page)).toBe(true);
    await context.close();
  });
});

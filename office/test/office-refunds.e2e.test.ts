/**
 * A refund of part of a sale from the back office's sale page, at 390×844 and 1280×800. A sale of 3
 * lines made through the API (3 sodas at 1,000, 1.25 kg of sugar at 3,250/kg = 4,063, 2 loaves at
 * 1,500: 10,063): 1 soda of 3 back (1,000, typed, submitted with Enter, with an Idempotency-Key),
 * then the sugar whole ("All": 4,063); the amounts shown before confirming, the lines' refunded
 * quantities and the refunded total on the screen and from the API are exact, the sale still paid;
 * 3 sodas more (2 are left) is the server's 409 with the soda line marked and nothing written.
 * A cashier without the refund permission is offered no refund.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner, type Session } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { openOffice, signInOffice, VIEWPORTS, type Viewport } from './office.js';

interface Line {
  product_id: string;
  refunded_qty: number;
}

describe('the back office: refunding part of a sale', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  const call = async (who: { token: string }, method: string, path: string, body?: unknown) => {
    const res = await shop.t.request(method, path, { token: who.token, body });
    expect([200, 201], res.text).toContain(res.status);
    return res.body.data;
  };
  const stockOf = async (owner: Session, id: string) => (await call(owner, 'GET', `/inventory/products/${id}`)).stock as number;
  /** The sale from the API: its status, refunded total and each line's refunded quantity. */
  const stored = async (owner: Session, id: string) => {
    const sale = await call(owner, 'GET', `/pos/transactions/${id}`);
    return { status: sale.status, refunded: sale.refunded_total, lines: sale.lines.map((l: Line) => l.refunded_qty) };
  };
  const setUp = async (viewport: Viewport) => {
    const owner = await registerOwner(shop.t);
    const product = (body: Record<string, unknown>) => call(owner, 'POST', '/inventory/products', { stock: 10, ...body });
    const soda = await product({ name: `Soda ${viewport}`, selling_price: 1000 });
    const sugar = await product({ name: `Sukari ${viewport}`, unit: 'kg', selling_price: 3250 });
    const bread = await product({ name: `Mkate ${viewport}`, selling_price: 1500 });
    const sale = await call(owner, 'POST', '/pos/sale', {
      lines: [
        { product_id: soda.id, qty: 3 },
        { product_id: sugar.id, qty: 1.25 },
        { product_id: bread.id, qty: 2 },
      ],
      payment_method: 'Cash',
    });
    expect(sale.total).toBe(10063);
    return { owner, soda, sugar, sale };
  };
  const openSale = async (page: Page, id: string) => {
    await page.goto(`${shop.origin}/office/sales/${id}`);
    await page.getByTestId('sale-detail').waitFor();
  };
  const lineOf = (page: Page, name: string) => page.getByTestId('refund-line').filter({ hasText: name });
  const amount = (page: Page) => page.getByTestId('refund-amount').locator('strong');

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'refunds 1 of 3 sodas, then the sugar whole, exactly; 3 more sodas refused with the line marked, at %s size',
    async (viewport) => {
      const { owner, soda, sugar, sale } = await setUp(viewport);
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await openSale(page, sale.id);

      // 1 of 3 sodas: nothing typed is everything left; 1 typed is 1,000.
      await page.getByTestId('sale-refund').click();
      expect(await amount(page).textContent()).toBe('TSh 10,063');
      expect(await lineOf(page, soda.name).getByTestId('refund-left').textContent()).toBe('3 sold · 3 left');
      await lineOf(page, soda.name).getByTestId('refund-qty').fill('1');
      expect(await amount(page).textContent()).toBe('TSh 1,000');
      await page.getByTestId('refund-reason').fill('one was flat');
      const sent = page.waitForRequest((r) => r.url().endsWith(`/pos/transactions/${sale.id}/refund`));
      await page.getByTestId('refund-reason').press('Enter');
      expect((await sent).headers()['idempotency-key']).toBeTruthy();
      expect((await sent).postDataJSON()).toEqual({ reason: 'one was flat', lines: [{ product_id: soda.id, qty: 1 }] });
      await page.getByTestId('notice').filter({ hasText: 'Refunded TSh 1,000.' }).waitFor();
      expect(await page.getByTestId('receipt-refunded').textContent()).toBe('TSh 1,000');
      expect(await page.getByTestId('line-refunded').allTextContents()).toEqual(['1 refunded']);
      expect(await page.getByTestId('sale-status').first().textContent()).toBe('Paid');
      expect(await stored(owner, sale.id)).toEqual({ status: 'paid', refunded: 1000, lines: [1, 0, 0] });
      expect(await stockOf(owner, soda.id)).toBe(8);

      // The sugar whole, by "All": 1.25 kg, 4,063.
      await page.getByTestId('sale-refund').click();
      expect(await lineOf(page, soda.name).getByTestId('refund-left').textContent()).toBe('3 sold · 2 left');
      expect(await amount(page).textContent()).toBe('TSh 9,063');
      await lineOf(page, sugar.name).getByTestId('refund-all').click();
      expect(await lineOf(page, sugar.name).getByTestId('refund-qty').inputValue()).toBe('1.25');
      expect(await amount(page).textContent()).toBe('TSh 4,063');
      await page.getByTestId('refund-reason').fill('wet sugar');
      await page.getByTestId('refund-submit').click();
      await page.getByTestId('notice').filter({ hasText: 'Refunded TSh 4,063.' }).waitFor();
      expect(await page.getByTestId('receipt-refunded').textContent()).toBe('TSh 5,063');
      expect(await page.getByTestId('line-refunded').allTextContents()).toEqual(['1 refunded', '1.25 kg refunded']);
      expect(await stored(owner, sale.id)).toEqual({ status: 'paid', refunded: 5063, lines: [1, 1.25, 0] });
      expect(await stockOf(owner, sugar.id)).toBe(10);

      // 3 sodas of the 2 left: the server's refusal, the soda line marked, nothing written.
      await page.getByTestId('sale-refund').click();
      expect(await amount(page).textContent()).toBe('TSh 5,000');
      await lineOf(page, soda.name).getByTestId('refund-qty').fill('3');
      expect(await lineOf(page, soda.name).getByTestId('refund-wrong').textContent()).toBe('Only 2 is left to refund');
      await page.getByTestId('refund-reason').fill('three came back');
      await page.getByTestId('refund-submit').click();
      const marked = lineOf(page, soda.name).getByTestId('error-lines.0.qty');
      await marked.waitFor();
      expect(await marked.textContent()).toBe(`only 2 of ${soda.name} is left to refund (3 sold)`);
      expect(await lineOf(page, soda.name).locator('.field.invalid').count()).toBe(1);
      expect(await lineOf(page, soda.name).getByTestId('refund-qty').inputValue()).toBe('3');
      expect(await stored(owner, sale.id)).toEqual({ status: 'paid', refunded: 5063, lines: [1, 1.25, 0] });
      expect(await stockOf(owner, soda.id)).toBe(8);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await context.close();
    },
  );

  it('offers a cashier without the refund permission no refund', async () => {
    const { owner, sale } = await setUp('desk');
    const cashier = await createStaff(shop.t, owner);
    expect(cashier.user.can_refund).toBe(false);
    const { context, page } = await openOffice(shop, 'desk');
    await signInOffice(page, cashier.phone, cashier.password);
    await openSale(page, sale.id);
    await page.getByTestId('sale-reprint').waitFor();
    expect(await page.getByTestId('sale-refund').count()).toBe(0);
    expect(await page.getByTestId('refund-form').count()).toBe(0);
    await context.close();
  });
});

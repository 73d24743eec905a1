/**
 * Issue 51's partial refund at the browser till, in a real Chromium: 1.25 kg of sugar sold at
 * 3,250/kg (4,063), then 0.25 kg refunded offline from the Sales screen's "Refund part": the form
 * shows the 813 that comes back before it is confirmed (the shared refundShare), the row says
 * what came back, the till's stock rises by exactly 0.25 kg, and once synced the server agrees.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { charge, expectPending, openApp, scan, signIn, startShop, type Shop } from './browser.js';

const SUGAR = { name: 'Sukari', unit: 'kg', barcode: '6161100000901', selling_price: 3250, stock: 10 };

const tileStock = async (page: Page) => {
  await page.getByTestId('product-search').fill(SUGAR.name);
  const stock = await page.locator(`[data-testid=product-tile][data-name="${SUGAR.name}"]`).getAttribute('data-stock');
  await page.getByTestId('product-search').fill('');
  return Number(stock);
};

describe('the browser till: part of a weighed line refunded', () => {
  let shop: Shop;
  let owner: Session;
  let productId: string;

  beforeAll(async () => {
    shop = await startShop();
    owner = await registerOwner(shop.t);
    const res = await shop.t.request('POST', '/inventory/products', { token: owner.token, body: SUGAR });
    expect(res.status, res.text).toBe(200);
    productId = res.body.data.id;
  }, 120_000);
  afterAll(() => shop?.close());

  it('refunds 0.25 kg of a 1.25 kg line offline: 813 back, stock up by exactly 0.25 kg, the server agrees', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await expectPending(page, 0, 30_000);
    await scan(page, SUGAR.barcode);
    await page.getByTestId('ask-quantity-input').fill('1.25');
    await page.getByTestId('ask-quantity-input').press('Enter');
    await expect.poll(() => page.getByTestId('cart-total').getAttribute('data-cents')).toBe('406300');
    const { id } = await charge(page, 'Cash');
    await expectPending(page, 0, 30_000);
    await expect.poll(() => tileStock(page)).toBe(8.75);

    await context.setOffline(true);
    await page.getByTestId('nav-sales').click();
    const row = page.locator(`[data-testid=sale-row][data-sale-id="${id}"]`);
    // Synced, the sale goes by the server's receipt number.
    const receipt = await row.getAttribute('data-receipt');
    await row.getByTestId('sale-refund-part').click();
    const form = page.getByTestId('refund-part-form');
    const line = form.locator(`[data-testid=refund-part-line][data-product-id="${productId}"]`);
    expect(await line.getAttribute('data-left')).toBe('1.25');
    const amount = form.getByTestId('refund-part-amount');
    await line.getByTestId('refund-part-qty').fill('1.5');
    expect(await form.getByTestId('refund-part-wrong').textContent()).toBe('Only 1.25 kg is left to give back.');
    expect(await form.getByTestId('refund-part-confirm').isDisabled()).toBe(true);
    await line.getByTestId('refund-part-qty').fill('0,25');
    expect(await form.getByTestId('refund-part-wrong').count()).toBe(0);
    // The money is shown before anything is confirmed: 4,063 × 0.25 / 1.25 = 812.6, to the shilling 813.
    expect(await amount.getAttribute('data-cents')).toBe('81300');
    expect(await amount.textContent()).toBe('Comes back: TZS 813');
    await form.getByTestId('reversal-reason').fill('Spilled on the way home');
    expect(await form.getByTestId('refund-part-confirm').textContent()).toBe('Refund TZS 813');
    await form.getByTestId('refund-part-confirm').click();

    await expect.poll(() => page.getByTestId('sales-message').textContent()).toBe(`TZS 813 of ${receipt} refunded`);
    expect(await form.count()).toBe(0);
    expect(await row.getByTestId('sale-refunded').textContent()).toBe('Refunded TZS 813');
    expect(await row.getAttribute('data-status')).toBe('paid');
    await page.getByTestId('nav-sell').click();
    expect(await tileStock(page)).toBe(9);
    await expectPending(page, 1);

    await context.setOffline(false);
    await expectPending(page, 0, 30_000);
    const sale = (await shop.t.request('GET', `/pos/transactions/${id}`, { token: owner.token })).body.data;
    expect(sale).toMatchObject({ status: 'paid', total: 4063, refunded_total: 813 });
    expect(sale.lines.map((l: { qty: number; refunded_qty: number }) => [l.qty, l.refunded_qty])).toEqual([[1.25, 0.25]]);
    const product = (await shop.t.request('GET', `/inventory/products/${productId}`, { token: owner.token })).body.data;
    expect(product.stock).toBe(9);
    await page.getByTestId('nav-sales').click();
    expect(await row.getByTestId('sale-refunded').textContent()).toBe('Refunded TZS 813');
    await context.close();
  }, 120_000);
});

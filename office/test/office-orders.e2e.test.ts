/**
 * Purchase orders in the back office at 390×844 and 1280×800: the owner orders two products from a
 * supplier (found by search), sends the order by SMS (the answer names the number; the outbox holds
 * the message), finds it expected in the list's "Sent" filter and on the supplier's page, receives
 * it (more than owed refused first, its line marked), and the two products' stock rises by exactly
 * the ordered quantities while the order shows received; a product under its reorder point is drafted from the suggestions, and that order is
 * cancelled (and suggested again). A cashier without the suppliers permission is offered no orders.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, e164, lastMessage, registerOwner, type Session, uniquePhone } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { callAs, goTo, openOffice, pick, signInOffice, type Viewport, VIEWPORTS } from './office.js';

describe('the back office: purchase orders, expected deliveries, reorder suggestions', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  const call = (owner: Session, method: string, path: string, body?: unknown) => callAs(shop, owner, method, path, body);
  const product = (owner: Session, body: Record<string, unknown>) =>
    call(owner, 'POST', '/inventory/products', { selling_price: 1000, cost_price: 700, stock: 0, ...body });
  const stockOf = async (owner: Session, id: string) => (await call(owner, 'GET', `/inventory/products/${id}`)).stock as number;
  const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'orders two products, sends by SMS, expects it, receives it: the stock rises by exactly what was ordered, at %s size',
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const soda = await product(owner, { name: `Soda ${viewport}`, stock: 10 });
      const unga = await product(owner, { name: `Unga ${viewport}`, stock: 4, cost_price: 1500 });
      const phone = uniquePhone();
      const supplier = await call(owner, 'POST', '/suppliers', { name: `Bakhresa ${viewport}`, phone, lead_time_days: 3 });
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'suppliers');
      await page.getByTestId('orders-open').click();
      await page.getByTestId('orders-empty').waitFor();
      await page.getByTestId('order-new').click();

      await pick(page, 'order-supplier', 'Bakh', supplier.id);
      await pick(page, 'order-0-product', 'soda', soda.id);
      expect(await page.getByTestId('order-0-cost').inputValue()).toBe('700');
      await page.getByTestId('order-0-qty').fill('24');
      await page.getByTestId('order-line-add').click();
      // By keyboard: the first match highlighted with the arrow, taken with Enter.
      await page.getByTestId('order-1-product').fill('unga');
      await page.locator(`[data-testid="order-1-product-option"][data-id="${unga.id}"]`).waitFor();
      await page.getByTestId('order-1-product').press('ArrowDown');
      await page.getByTestId('order-1-product').press('Enter');
      await page.locator(`[data-testid="order-1-product"][data-picked="${unga.id}"]`).waitFor();
      await page.getByTestId('order-1-qty').fill('10');
      await page.getByTestId('order-1-cost').fill('1400');
      await page.getByTestId('order-save').click();

      await page.getByTestId('order-page').waitFor();
      expect(await page.getByTestId('order-status').textContent()).toBe('Draft');
      expect(await page.getByTestId('order-total').textContent()).toBe('TSh 30,800');
      const reference = (await page.getByTestId('order-reference').textContent())!;
      await page.getByTestId('order-send').click();
      await page
        .getByTestId('order-notice')
        .filter({ hasText: `Sent by SMS to ${e164(phone)}` })
        .waitFor();
      expect(await page.getByTestId('order-status').textContent()).toBe('Sent');
      expect((await lastMessage(shop.t, e164(phone)))?.body).toContain(`Purchase order ${reference}`);

      // Expected: in the list's "Sent" filter with its date, and on the supplier's page.
      await page.getByRole('link', { name: 'Purchase orders' }).click();
      await page.getByTestId('order-status-filter').selectOption('sent');
      await page.getByTestId('order-expected').waitFor();
      expect(await page.getByTestId('orders-row').count()).toBe(1);
      await page.getByTestId('order-open').click();
      await page.getByRole('link', { name: supplier.name }).click();
      await page.getByTestId('expected-row').waitFor();
      expect(await page.getByTestId('expected-row').textContent()).toContain(reference);
      await page.getByTestId('expected-row').getByTestId('order-open').click();

      await page.getByTestId('order-receive').click();
      expect(await page.getByTestId(`receive-${soda.id}`).inputValue()).toBe('24');
      expect(await page.getByTestId(`receive-${unga.id}`).inputValue()).toBe('10');
      await page.getByTestId('receive-invoice').fill('INV-77');
      // More than the order owes: the server's 409, the line marked, nothing received.
      await page.getByTestId(`receive-${soda.id}`).fill('25');
      await page.getByTestId('receive-save').click();
      await page.getByTestId('error-lines.0.qty').waitFor();
      expect(await stockOf(owner, soda.id)).toBe(10);
      await page.getByTestId(`receive-${soda.id}`).fill('24');
      await page.getByTestId('receive-save').click();
      await page.getByTestId('order-notice').filter({ hasText: 'Received in full' }).waitFor();
      expect(await page.getByTestId('order-status').textContent()).toBe('Received');
      expect(await page.getByTestId('line-owed').allTextContents()).toEqual(['0', '0']);
      expect(await page.getByTestId('order-receive').count()).toBe(0);
      expect(await stockOf(owner, soda.id)).toBe(10 + 24);
      expect(await stockOf(owner, unga.id)).toBe(4 + 10);
      const [order] = await call(owner, 'GET', '/suppliers/purchase-orders');
      expect(order).toMatchObject({ reference, status: 'received', sent_via: 'sms', total_value: 30800 });
      expect(await noSideways(page)).toBe(true);
      await context.close();
    },
  );

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    'drafts an order from the suggestions for a product under its reorder point, and cancels it, at %s size',
    async (viewport) => {
      const owner = await registerOwner(shop.t);
      const maji = await product(owner, { name: `Maji ${viewport}`, reorder_point: 10, cost_price: 500 });
      const supplier = await call(owner, 'POST', '/suppliers', { name: `Azam ${viewport}` });
      // Its last delivery names who brings it: 3 in, under the reorder point of 10, so 7 are suggested.
      await call(owner, 'POST', '/suppliers/deliveries', {
        supplier_id: supplier.id,
        status: 'delivered',
        lines: [{ product_id: maji.id, qty: 3, unit_cost: 500 }],
      });
      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, owner.phone, owner.password);
      await goTo(page, 'suppliers');
      await page.getByTestId('orders-open').click();
      await page.getByTestId('order-suggestions').click();
      await page.getByTestId('suggestions-row').waitFor();
      expect(await page.getByTestId('suggestion-group').textContent()).toContain(supplier.name);
      expect(await page.getByTestId('suggested').textContent()).toBe('7 piece');
      await page.getByTestId('suggestions-draft').click();
      await page.getByTestId('suggestions-made').waitFor();
      // Drafted, it counts as on order: nothing is left to suggest.
      await page.getByTestId('suggestions-none').waitFor();

      await page.getByTestId('suggestions-made').getByTestId('order-open').click();
      await page.getByTestId('order-page').waitFor();
      expect(await page.getByTestId('order-status').textContent()).toBe('Draft');
      expect(await page.getByTestId('order-lines-row').textContent()).toContain(`Maji ${viewport}`);
      expect(await page.getByTestId('line-owed').textContent()).toBe('7');
      await page.getByTestId('order-cancel').click();
      await page.getByTestId('order-cancel-confirm').click();
      await page.getByTestId('order-status').filter({ hasText: 'Cancelled' }).waitFor();
      expect(await page.getByTestId('order-send').count()).toBe(0);
      expect(await page.getByTestId('order-receive').count()).toBe(0);
      const orders = await call(owner, 'GET', '/suppliers/purchase-orders');
      expect(orders.map((o: { status: string; total_value: number }) => [o.status, o.total_value])).toEqual([['cancelled', 3500]]);
      // Cancelled, the product is suggested again.
      const { groups } = await call(owner, 'GET', '/inventory/reorder-suggestions');
      expect(groups.map((g: { supplier_id: string }) => g.supplier_id)).toEqual([supplier.id]);
      expect(await noSideways(page)).toBe(true);
      await context.close();
    },
  );

  it('offers a cashier without the suppliers permission no purchase orders', async () => {
    const owner = await registerOwner(shop.t);
    const cashier = await createStaff(shop.t, owner);
    const { context, page } = await openOffice(shop, 'desk');
    await signInOffice(page, cashier.phone, cashier.password);
    await goTo(page, 'suppliers');
    await page.getByTestId('supplier-search').waitFor();
    expect(await page.getByTestId('orders-open').count()).toBe(0);
    await page.goto(`${shop.origin}/office/suppliers/orders`);
    await page.getByTestId('error').filter({ hasText: 'Your account may not do this.' }).waitFor();
    await context.close();
  });
});

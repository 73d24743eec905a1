/**
 * Issue 51's split tender at the browser till, in a real Chromium: offline, in an open shift, a
 * sale of TZS 12,500 paid 5,000 cash + 7,500 M-Pesa (the SMS reference typed). The panel shows what
 * is left to pay and holds Charge until the parts cover the total and the M-Pesa part has its
 * reference; F8 takes the keyboard to the cash part and Enter charges only once the parts pay the
 * sale; it fits a 360 px phone; the receipt lists each part, the sales list says Split. Once
 * synced, the server's sale has the two parts and the shift counts 5,000 in the drawer, 7,500 in M-Pesa.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { expectPending, openApp, scan, signIn, startShop, type Shop, whenOfflineReady } from './browser.js';

/** The focused field and the method of the part it belongs to, e.g. `split-amount:Cash`. */
const focusedPart = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return `${el?.getAttribute('data-testid')}:${el?.closest('[data-testid=split-part]')?.getAttribute('data-method')}`;
  });

const UNGA = { name: 'Unga 2kg', barcode: '6161100000024', selling_price: 2500, stock: 100 };

describe('the browser till: a sale paid two ways', () => {
  let shop: Shop;
  let owner: Session;

  beforeAll(async () => {
    shop = await startShop();
    owner = await registerOwner(shop.t);
    const res = await shop.t.request('POST', '/inventory/products', { token: owner.token, body: { ...UNGA, cost_price: 2000 } });
    expect(res.status, res.text).toBe(200);
  }, 120_000);
  afterAll(() => shop?.close());

  it('sells 5,000 cash + 7,500 M-Pesa offline; the receipt, the sales list, the server’s sale and shift are exact', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await whenOfflineReady(page);
    await page.getByTestId('no-shift-open').click();
    await page.getByTestId('shift-float').fill('20,000');
    await page.getByTestId('shift-open').click();
    await page.getByTestId('shift-close-form').waitFor();
    await expectPending(page, 0, 30_000);
    await context.setOffline(true);
    await page.getByTestId('nav-sell').click();
    await scan(page, `5*${UNGA.barcode}`);
    await expect.poll(() => page.getByTestId('cart-total').getAttribute('data-cents')).toBe('1250000');

    const toggle = page.getByTestId('split-toggle');
    await page.getByTestId('lang-switch').click();
    expect(await toggle.textContent()).toBe('Gawa malipo');
    await page.getByTestId('lang-switch').click();
    expect(await toggle.textContent()).toBe('Split payment');
    await toggle.click();
    const parts = page.getByTestId('split-part');
    expect(await parts.evaluateAll((els) => els.map((e) => e.getAttribute('data-method')))).toEqual(['Cash', 'M-Pesa']);
    const left = page.getByTestId('split-left');
    const chargeButton = page.getByTestId('charge');
    const why = page.getByTestId('split-why');
    // F8, the tender's key, takes the keyboard to the cash part's amount (not to a Cash received the
    // panel hides); Enter in a part charges only once the parts pay the sale, and otherwise says why.
    await page.keyboard.press('F8');
    await expect.poll(() => focusedPart(page)).toBe('split-amount:Cash');
    await page.keyboard.type('5,000');
    expect(await left.textContent()).toBe('Left to pay: TZS 7,500');
    expect(await chargeButton.isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await why.textContent()).toBe('Not charged: TZS 7,500 is still to pay.');
    await parts.nth(1).getByTestId('split-amount').fill('7500');
    expect(await left.textContent()).toBe('Paid in full');
    expect(await page.getByTestId('split-fault').textContent()).toBe('Type the reference from the customer’s SMS or slip.');
    expect(await chargeButton.isDisabled()).toBe(true);
    await parts.nth(1).getByTestId('split-amount').press('Enter');
    expect(await why.textContent()).toBe('Not charged: Type the reference from the customer’s SMS or slip.');
    expect(await page.getByTestId('receipt').count()).toBe(0);
    // F8 again from elsewhere: back in the cash part, its figure selected, so what is typed replaces it.
    await page.getByTestId('scan-input').focus();
    await page.keyboard.press('F8');
    await expect.poll(() => focusedPart(page)).toBe('split-amount:Cash');
    await page.keyboard.type('5000');
    expect(await left.textContent()).toBe('Paid in full');
    await parts.nth(1).getByTestId('split-reference').fill('QK7SPLIT75');
    expect(await page.getByTestId('split-fault').count()).toBe(0);
    expect(await chargeButton.isDisabled()).toBe(false);

    // On a 360 px phone the cart is a drawer: the parts and Charge fit its width.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByTestId('cart-open').click();
    for (const el of [parts.nth(0), parts.nth(1), chargeButton]) {
      const box = (await el.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
    // Enter in the reference, the parts now paying the sale, charges.
    await parts.nth(1).getByTestId('split-reference').press('Enter');
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    const id = (await receipt.getAttribute('data-sale-id'))!;
    expect(await page.getByTestId('receipt-paid-by').getAttribute('data-method')).toBe('Mixed');
    const printed = await page
      .getByTestId('receipt-part')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-method'), e.getAttribute('data-cents'), e.textContent?.trim()]));
    expect(printed.map(([m, c]) => [m, c])).toEqual([
      ['Cash', '500000'],
      ['M-Pesa', '750000'],
    ]);
    expect(printed[1]![2]).toMatch(/^M-Pesa \(QK7SPLIT75\)\s*TZS 7,500$/);
    await page.getByTestId('receipt-close').click();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectPending(page, 1);

    await context.setOffline(false);
    await expectPending(page, 0, 60_000);
    await page.getByTestId('nav-sales').click();
    await expect.poll(() => page.locator(`[data-testid=sale-row][data-sale-id="${id}"]`).textContent()).toContain('Split');

    const sale = (await shop.t.request('GET', `/pos/transactions/${id}`, { token: owner.token })).body.data;
    expect(sale).toMatchObject({ total: 12500, payment_method: 'Mixed', cash_tendered: 5000, change_given: 0, source: 'offline' });
    expect(
      sale.payments.map((p: { method: string; amount: number; reference: string | null }) => [p.method, p.amount, p.reference]),
    ).toEqual([
      ['Cash', 5000, null],
      ['M-Pesa', 7500, 'QK7SPLIT75'],
    ]);
    const shift = (await shop.t.request('GET', `/pos/shifts/${sale.shift_id}`, { token: owner.token })).body.data;
    const byMethod = Object.fromEntries(shift.report.methods.map((m: { method: string }) => [m.method, m]));
    expect(byMethod.Cash).toMatchObject({ opening_float: 20000, sales: 5000, sales_count: 1, expected: 25000 });
    expect(byMethod['M-Pesa']).toMatchObject({ sales: 7500, sales_count: 0, expected: 7500 });
    expect(shift.report.sales_count).toBe(1);
    await context.close();
  }, 120_000);
});

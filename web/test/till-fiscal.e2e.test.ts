/**
 * Issue 21 in the browser till: a store whose fiscal device is registered sells online with the
 * buyer's TIN, and the receipt, once the sale has synced, prints TRA's part: the verification code
 * and its QR code, and the buyer's TIN.
 * No TRA here (the device is written straight into the database, TRA is a closed port): the
 * receipt stays pending TRA's acknowledgement, and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSED_TRA, fiscaliseStore } from '../../test/setup/fiscal-device.js';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { expectPending, openApp, scan, signIn, startShop, type Shop } from './browser.js';

describe('the browser till: fiscal receipts', () => {
  let shop: Shop;
  let owner: Session;

  beforeAll(async () => {
    shop = await startShop({ config: { TRA_TEST_URL: CLOSED_TRA } });
    owner = await registerOwner(shop.t);
    const res = await shop.t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Sukari 1kg', barcode: '6161100000048', selling_price: 3200, stock: 10 },
    });
    expect(res.status, res.text).toBe(200);
    await fiscaliseStore(shop.t, owner);
  }, 120_000);
  afterAll(async () => {
    await shop?.t.deps.fiscal.idle();
    await shop?.close();
  });

  it('takes the buyer’s TIN, and prints it with the TRA verification code and QR code on the receipt of a synced sale', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await scan(page, '6161100000048');
    // As a cashier does: the line is in the cart before the buyer's TIN is typed.
    await page.getByTestId('cart-line').waitFor();
    // The store fiscalises: the till asks for the buyer's TIN and holds the sale until it is 9 digits.
    await page.getByTestId('pay-tin').fill('10020030');
    // The TIN typed stays typed (a full run once saw neither it nor the hint: this names which).
    await expect.poll(() => page.getByTestId('pay-tin').inputValue()).toBe('10020030');
    await page.getByTestId('pay-tin-wrong').waitFor();
    expect(await page.getByTestId('charge').isDisabled()).toBe(true);
    await page.getByTestId('pay-tin').fill('100200300');
    expect(await page.getByTestId('pay-tin-wrong').count()).toBe(0);
    await page.getByTestId('charge').click();
    // The receipt left open after the sale: the till syncs at once and the TRA part appears.
    await page.getByTestId('receipt-fiscal').waitFor({ timeout: 10_000 });
    const id = await page.getByTestId('receipt').getAttribute('data-sale-id');
    await page.getByTestId('receipt-close').click();
    await expectPending(page, 0);

    // Reopened from the recent sales.
    await page.getByTestId('nav-sales').click();
    const row = page.locator(`[data-testid=sale-row][data-sale-id="${id}"]`);
    await expect.poll(() => row.getAttribute('data-sync')).toBe('synced');
    await row.getByTestId('sale-view').click();
    const fiscal = page.getByTestId('receipt-fiscal');
    await fiscal.waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('receipt-rctvnum').textContent()).toBe('8AD1E31');
    expect(await fiscal.textContent()).toContain('Buyer TIN: 100200300');
    expect(await page.getByTestId('receipt-qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await page.getByTestId('receipt-verify-url').textContent()).toMatch(
      /^https:\/\/virtual\.tra\.go\.tz\/efdmsRctVerify\/8AD1E31_\d{6}$/,
    );
    expect(await fiscal.getAttribute('data-status')).toBe('pending');
    expect(await page.getByTestId('receipt-fiscal-pending').textContent()).toBe('(pending TRA acknowledgement)');
    await context.close();
  }, 120_000);
});

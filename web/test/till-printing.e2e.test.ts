/**
 * Issue 37, printing, in a real Chromium: a fake serial port injected into the page records what
 * the till writes to it. The cashier pairs it, chooses 58 mm paper and sells; once the sale has
 * synced, Print sends exactly the bytes this process encodes for the server's copy of the sale
 * (the shop's address, phone and TIN set by the owner after the till loaded: they came by pull).
 * With the printer gone after a reload, or with none paired, Print opens the browser's dialog.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { lang } from '../src/i18n.js';
import { encodeReceipt } from '../src/print/encode-receipt.js';
import { receiptModel } from '../src/print/receipt-model.js';
import { expectPending, openApp, scan, signIn, startShop, type Shop } from './browser.js';

const SUKARI = { name: 'Sukari 1kg', barcode: '6161100000048', selling_price: 3200 };
const SHOP_DETAILS = { address: 'Mtaa wa Congo 14, Kariakoo', phone: '+255754123456', tin: '100200300' };

declare global {
  interface Window {
    __printed: number[];
    __printCalls: number;
  }
}

/**
 * A serial port that keeps what is written to it, and `window.print` counting its calls. With
 * `duka-test.port-gone` in sessionStorage the port is no longer plugged in: the page finds no port.
 */
function fakeSerialAndPrint() {
  window.__printed = [];
  window.__printCalls = 0;
  window.print = () => void window.__printCalls++;
  const port = {
    readable: null,
    writable: new WritableStream<Uint8Array>({ write: (chunk) => void window.__printed.push(...chunk) }),
    getInfo: () => ({ usbVendorId: 0x0416, usbProductId: 0x5011 }),
    open: async () => undefined,
    close: async () => undefined,
  };
  const serial = Object.assign(new EventTarget(), {
    requestPort: async () => port,
    getPorts: async () => (sessionStorage.getItem('duka-test.port-gone') ? [] : [port]),
  });
  Object.defineProperty(Navigator.prototype, 'serial', { get: () => serial, configurable: true });
}

const hex = (bytes: ArrayLike<number>) => Buffer.from(Array.from(bytes)).toString('hex');
const printed = (page: Page) => page.evaluate(() => window.__printed.slice());
const printCalls = (page: Page) => page.evaluate(() => window.__printCalls);

async function sell(page: Page): Promise<string> {
  await scan(page, SUKARI.barcode);
  await scan(page, SUKARI.barcode);
  await page.locator('[data-testid=pay-method][data-method="Cash"]').click();
  await page.getByTestId('charge').click();
  await page.getByTestId('receipt').waitFor();
  return (await page.getByTestId('receipt').getAttribute('data-sale-id'))!;
}

describe('the browser till: printing receipts', () => {
  let shop: Shop;
  let owner: Session;

  beforeAll(async () => {
    shop = await startShop();
    owner = await registerOwner(shop.t);
    const res = await shop.t.request('POST', '/inventory/products', { token: owner.token, body: { ...SUKARI, stock: 20 } });
    expect(res.status, res.text).toBe(200);
    lang.set('en');
  }, 120_000);
  afterAll(() => shop?.close());

  it('prints a synced sale on a paired 58 mm serial printer, byte for byte the encoding of the server’s copy, and falls back to the dialog when the printer is gone', async () => {
    const { context, page } = await openApp(shop);
    await context.addInitScript(fakeSerialAndPrint);
    await page.reload();
    await signIn(page, owner.phone, owner.password);
    const patch = await shop.t.request('PATCH', '/accounts/organisation', { token: owner.token, body: SHOP_DETAILS });
    expect(patch.status, patch.text).toBe(200);

    await page.getByTestId('printer-open').click();
    expect(await page.getByTestId('printer-status').textContent()).toBe('No printer paired: Print opens the browser’s print dialog.');
    await page.locator('[data-testid=printer-connect][data-kind=serial]').click();
    await expect.poll(() => page.getByTestId('printer-status').textContent()).toBe('Printing to serial');
    await page.locator('[data-testid=printer-width][data-width="58"]').click();
    await page.getByTestId('printer-close').click();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('duka.till.printer')!))).toMatchObject({
      width: 58,
      printer: { kind: 'serial', device: { type: 'serial', vendorId: 0x0416, productId: 0x5011 }, language: 'esc-pos' },
    });

    const id = await sell(page);
    await expectPending(page, 0);
    await expect.poll(() => page.getByTestId('receipt-number').textContent(), { timeout: 10_000 }).toMatch(/^[A-Z0-9]+-\d{6}$/);
    await expect.poll(() => page.getByTestId('receipt-shop').textContent()).toContain('TIN: 100200300');
    await page.getByTestId('receipt-print').click();

    const tx = await shop.t.request('GET', `/pos/transactions/${id}`, { token: owner.token });
    const me = await shop.t.request('GET', '/accounts/me', { token: owner.token });
    const { organisation, store, user } = me.body.data;
    const model = receiptModel(
      { ...tx.body.data, sync_state: 'synced' },
      { shop: organisation, store, cashier: `${user.first_name} ${user.last_name}`, zone: organisation.timezone },
    );
    const expected = encodeReceipt(model, { width: 58 });
    await expect.poll(async () => (await printed(page)).length, { timeout: 10_000 }).toBe(expected.length);
    expect(hex(await printed(page))).toBe(hex(expected));
    const text = Buffer.from(await printed(page)).toString('latin1');
    // The store's own phone (its owner's, from registration) before the organisation's.
    expect(text).toMatch(new RegExp(`Mtaa wa Congo 14, Kariakoo\n\r +Tel: \\${store.phone}\n\r +TIN: 100200300\n\r-{32}\n\r`));
    expect(text).toContain(`Receipt: ${tx.body.data.receipt_number}\n\rTill receipt: ${tx.body.data.client_receipt_number}\n\r`);
    expect(text).toContain(`  2 x 3,200${' '.repeat(16)}6,400\n\r`);
    expect(text).toContain(`Cashier: ${user.first_name} ${user.last_name}\n\r`);
    expect(hex(expected)).toMatch(/^1b40.*(0a0d){4}1d5600(0a0d)?$/);
    expect(await printCalls(page)).toBe(0);

    // The printer unplugged, the page reloaded: Print says so, and the browser's dialog prints instead.
    await page.evaluate(() => sessionStorage.setItem('duka-test.port-gone', '1'));
    await page.reload();
    await page.getByTestId('product-grid').waitFor({ timeout: 60_000 });
    await page.getByTestId('nav-sales').click();
    await page.locator(`[data-testid=sale-row][data-sale-id="${id}"]`).getByTestId('sale-view').click();
    await page.getByTestId('receipt-print').click();
    await expect.poll(() => printCalls(page)).toBe(1);
    // The paired printer is named as not reachable: not "none connected", which is what an unpaired till says.
    expect(await page.getByTestId('receipt-print-error').textContent()).toBe(
      'The printer “serial” is not reachable: check that it is switched on and plugged in (or, for Bluetooth, near).',
    );
    expect(await printed(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.dataset.paper)).toBe('58');
    await context.close();
  }, 120_000);

  it('opens the print dialog, sized to the paper, when no printer is paired', async () => {
    const { context, page } = await openApp(shop);
    await context.addInitScript(fakeSerialAndPrint);
    await page.reload();
    await signIn(page, owner.phone, owner.password);
    await sell(page);
    await page.getByTestId('receipt-print').click();
    await expect.poll(() => printCalls(page)).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dataset.paper)).toBe('80');
    expect(await page.evaluate(() => document.getElementById('duka-receipt-page')?.textContent)).toContain('size: 80mm auto');
    expect(await page.getByTestId('receipt-print-error').count()).toBe(0);
    expect(await printed(page)).toEqual([]);
    await context.close();
  }, 120_000);
});

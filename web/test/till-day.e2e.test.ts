/**
 * Issue 37: a till a cashier keeps open all day, in a real Chromium. The keyboard and the scanner
 * alone ring up a sale; receipts are found by either number; a refund the server refused is told
 * and dealt with; signing out is refused while sales wait, and a cashier signs in again offline;
 * the till fits a phone; the owner hears once when the browser will not promise to keep storage.
 * Issue 49: with eight lines the total, the tender and Charge stay in view at 1280×800 and on a
 * 360×740 phone, where the sales list's buttons fit the screen; F8 takes the keyboard to Cash
 * received and Enter there charges when the cash covers the total.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { charge, expectPending, openApp, scan, signIn, startShop, type Shop, whenOfflineReady } from './browser.js';

const SODA = { name: 'Soda 500ml', barcode: '6161100000017', selling_price: 1000, stock: 50 };
const SUKARI = { name: 'Sukari 1kg', barcode: '6161100000048', selling_price: 3200, stock: 2 };

const lineQty = (page: Page, id: string) =>
  page.locator(`[data-testid=cart-line][data-product-id="${id}"] [data-testid=cart-qty]`).inputValue();
/** Whether the cashier can see the element: on the screen, and not scrolled out of its panel or covered. */
async function inView(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const size = page.viewportSize()!;
  if (!box || box.y < 0 || box.x < 0 || box.y + box.height > size.height || box.x + box.width > size.width) return false;
  return el.evaluate(
    (node, p) => {
      const top = document.elementFromPoint(p.x, p.y);
      return !!top && (top === node || node.contains(top));
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
}
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

describe('the browser till through a cashier’s day', () => {
  let shop: Shop;
  let owner: Session;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    shop = await startShop();
    owner = await registerOwner(shop.t);
    for (const p of [SODA, SUKARI]) {
      const res = await shop.t.request('POST', '/inventory/products', {
        token: owner.token,
        body: { ...p, cost_price: p.selling_price / 2 },
      });
      expect(res.status, res.text).toBe(200);
      ids[p.name] = res.body.data.id;
    }
  }, 120_000);
  afterAll(() => shop?.close());

  it('rings up sales with the keyboard and scanner alone, warns of overselling, and finds a receipt by either number', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await expectPending(page, 0);

    // Quantity times a scan; the focus stays in the scan field after a tap on a tile.
    await scan(page, `3*${SODA.barcode}`);
    await expect.poll(() => lineQty(page, ids[SODA.name]!)).toBe('3');
    await page.locator(`[data-testid=product-tile][data-name="${SODA.name}"]`).click();
    await expect.poll(() => focused(page)).toBe('scan-input');
    await expect.poll(() => lineQty(page, ids[SODA.name]!)).toBe('4');
    // Digits typed with the focus on a button still land in the scan field (a wedge scanner types them).
    await page.getByTestId('cart-inc').focus();
    await page.keyboard.type(SODA.barcode);
    await page.keyboard.press('Enter');
    await expect.poll(() => lineQty(page, ids[SODA.name]!)).toBe('5');

    // Three of a product the till knows two of: warned on the line, still sellable (the shelf may hold more).
    await scan(page, `3x${SUKARI.barcode}`);
    await page.getByTestId('oversell-warning').waitFor();
    expect(await page.getByTestId('oversell-warning').textContent()).toContain('Only 2 in stock');
    await page.locator(`[data-testid=cart-line][data-product-id="${ids[SUKARI.name]}"] [data-testid=cart-dec]`).click();
    await expect.poll(() => page.getByTestId('oversell-warning').count()).toBe(0);

    // F9 charges; a scan while the receipt is open starts the next sale with it; Escape closes a receipt.
    await page.keyboard.press('F9');
    const first = page.getByTestId('receipt');
    await first.waitFor();
    expect(await page.getByTestId('receipt-total').textContent()).toMatch(/11,400/);
    await expect.poll(() => focused(page)).toBe('receipt-scan');
    await page.keyboard.type(SODA.barcode);
    await page.keyboard.press('Enter');
    await page.getByTestId('receipt-view').waitFor({ state: 'detached' });
    await expect.poll(() => lineQty(page, ids[SODA.name]!)).toBe('1');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('receipt').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('receipt-view').waitFor({ state: 'detached' });
    await expectPending(page, 0, 30_000);

    // Offline, a sale has the till's temporary number; the sales list finds it by that and, once sent, by the store's.
    await whenOfflineReady(page);
    await context.setOffline(true);
    await scan(page, SODA.barcode);
    const offline = await charge(page, 'Cash');
    expect(offline.receipt).toMatch(/^[A-Z0-9]+-T\d+-\d+$/);
    await page.getByTestId('nav-sales').click();
    await page.getByTestId('sales-search').fill(offline.receipt.toLowerCase());
    await expect.poll(() => page.getByTestId('sale-row').count()).toBe(1);
    await context.setOffline(false);
    await expectPending(page, 0, 60_000);
    const row = page.locator(`[data-testid=sale-row][data-sale-id="${offline.id}"]`);
    await expect.poll(() => row.getAttribute('data-receipt'), { timeout: 15_000 }).toMatch(/^[A-Z0-9]+-0+\d+$/);
    const storeNumber = (await row.getAttribute('data-receipt'))!;
    await page.getByTestId('sales-search').fill(storeNumber.replace(/^[A-Z0-9]+-0+/, ''));
    await expect.poll(async () => (await page.getByTestId('sale-row').all()).length).toBeGreaterThanOrEqual(1);
    await page.getByTestId('sales-search').fill(storeNumber);
    await expect.poll(() => page.getByTestId('sale-row').getAttribute('data-sale-id')).toBe(offline.id);
    await page.getByTestId('sales-search').fill(offline.receipt);
    await expect.poll(() => page.getByTestId('sale-row').getAttribute('data-sale-id')).toBe(offline.id);
    await context.close();
  }, 300_000);

  it('tells the cashier a refund and a void the server refused, each as what it was, with the sale as the server has it, until dealt with', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await scan(page, SODA.barcode);
    const sale = await charge(page, 'Cash');
    await scan(page, SUKARI.barcode);
    const other = await charge(page, 'Cash');
    await expectPending(page, 0, 30_000);
    await whenOfflineReady(page);

    // The owner voids one sale and refunds the other on the server, while the till, offline, refunds the first and voids the second.
    await context.setOffline(true);
    const voided = await shop.t.request('POST', `/pos/transactions/${sale.id}/void`, {
      token: owner.token,
      body: { reason: 'rung up twice' },
    });
    expect(voided.status, voided.text).toBe(200);
    const refunded = await shop.t.request('POST', `/pos/transactions/${other.id}/refund`, {
      token: owner.token,
      body: { reason: 'brought back' },
    });
    expect(refunded.status, refunded.text).toBe(200);
    await page.getByTestId('nav-sales').click();
    const row = (id: string) => page.locator(`[data-testid=sale-row][data-sale-id="${id}"]`);
    await row(sale.id).getByTestId('sale-refund').click();
    await page.getByTestId('reversal-reason').fill('customer returned it');
    await page.getByTestId('reversal-confirm').click();
    await row(other.id).getByTestId('sale-void').click();
    await page.getByTestId('reversal-reason').fill('wrong item');
    await page.getByTestId('reversal-confirm').click();
    const otherNumber = (await row(other.id).getAttribute('data-receipt'))!;
    // Clicked before the refund had finished sending: its late "done" neither closes the void's form nor outlasts it.
    await expect.poll(() => page.getByTestId('sales-message').textContent()).toBe(`${otherNumber} voided`);
    await expect.poll(() => row(other.id).getAttribute('data-status')).toBe('void');
    await expectPending(page, 2);
    await context.setOffline(false);

    const badge = page.getByTestId('status-rejected');
    await badge.waitFor({ timeout: 60_000 });
    await expect.poll(() => badge.textContent()).toBe('2 refused');
    // Each row says which move was refused, and shows the sale as the server has it.
    await expect.poll(() => row(sale.id).getByTestId('sale-reversal-refused').textContent()).toBe('refund refused');
    await expect.poll(() => row(other.id).getByTestId('sale-reversal-refused').textContent()).toBe('void refused');
    await expect.poll(() => row(other.id).getAttribute('data-status')).toBe('refunded');
    expect(await row(sale.id).getAttribute('data-status')).toBe('void');
    // "… voided" no longer stands: the message says the void was refused.
    await expect
      .poll(() => page.getByTestId('sales-message').textContent())
      .toBe(`The server refused the void of ${otherNumber}: it is listed under Conflicts, with what it means.`);

    await badge.click();
    const refused = page.getByTestId('refused');
    await expect.poll(() => refused.count()).toBe(2);
    const textOf = async (type: string) =>
      (await page.locator(`[data-testid=refused][data-type="${type}"]`).getByTestId('refused-text').textContent())!;
    await expect
      .poll(() => textOf('sale.refund'))
      .toMatch(
        /^The refund of [A-Z0-9]+-0+\d+ \(TZS 1,000\) was refused: .+\. The server has the sale as voided, its stock back on the shelf\. If you paid the customer, tell the owner\.$/,
      );
    await expect
      .poll(() => textOf('sale.void'))
      .toMatch(
        new RegExp(
          `^The void of ${otherNumber} \\(TZS 3,200\\) was refused: .+\\. The server has the sale as refunded\\. If you gave money back, tell the owner\\.$`,
        ),
      );
    expect(await textOf('sale.void')).not.toContain('still counts as paid');
    // The refused void's receipt: refunded, as the server has it, not voided.
    await page.locator('[data-testid=refused][data-type="sale.void"]').getByTestId('refused-receipt').click();
    await page.getByTestId('receipt').waitFor();
    expect(await page.locator('[data-testid=receipt] .stamp').allTextContents()).toEqual(['REFUNDED']);
    await page.getByTestId('receipt-close').click();
    await page.getByTestId('lang-switch').click();
    await expect.poll(() => textOf('sale.void')).toContain('Seva ina mauzo haya kama yaliyorejeshewa pesa.');
    await expect.poll(() => textOf('sale.refund')).toContain('Seva ina mauzo haya kama yaliyofutwa, bidhaa zake zimerudi kwenye rafu.');
    await page.getByTestId('nav-sales').click();
    expect(await row(other.id).getByTestId('sale-reversal-refused').textContent()).toBe('kufuta kumekataliwa');
    await page.getByTestId('lang-switch').click();
    await badge.click();
    for (const left of [1, 0]) {
      await refused.first().getByTestId('refused-dismiss').click();
      await expect.poll(() => refused.count()).toBe(left);
    }
    await expect.poll(() => page.getByTestId('status-rejected').count()).toBe(0);
    await context.close();
  }, 300_000);

  it('mobile money in a shop without a collection account: says nobody checks it, Charge waits for the reference, and the receipt never promises a check', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await scan(page, SODA.barcode);
    await page.locator('[data-testid=pay-method][data-method="mobile"]').click();
    await page.getByTestId('mm-phone').fill('0754 123 456');
    await page.getByTestId('mm-ask').click();
    const sms = page.getByTestId('mm-sms-note');
    await expect.poll(() => sms.getAttribute('data-reason')).toBe('no_account');
    expect(await sms.textContent()).toContain(
      'Nobody checks the payment automatically: look at the customer’s SMS before they go; the receipt says the payment is unconfirmed.',
    );
    expect(await page.getByTestId('mm-ask').count()).toBe(0);
    expect(await page.getByTestId('charge').isDisabled()).toBe(true);
    expect(await page.getByTestId('mm-reference-missing').isVisible()).toBe(true);
    await page.getByTestId('pay-reference').fill('QK7NOACC1');
    await page.getByTestId('charge').click();
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    const id = (await receipt.getAttribute('data-sale-id'))!;
    const check = page.getByTestId('receipt-verification');
    await expectPending(page, 0, 30_000);
    // Sent, and the server checks nothing in this shop: the receipt says what really happens.
    await expect.poll(() => check.getAttribute('data-verification'), { timeout: 15_000 }).toBe('unchecked');
    expect(await check.locator('strong').textContent()).toBe('Payment unconfirmed');
    expect(await page.getByTestId('receipt-verification-note').textContent()).toBe(
      'This shop has no mobile-money account, so nobody confirms this payment automatically: check the customer’s SMS; the owner checks the wallet’s statement.',
    );
    const onServer = await shop.t.request('GET', `/pos/transactions/${id}`, { token: owner.token });
    expect(onServer.body.data).toMatchObject({ payment_method: 'M-Pesa', payment_reference: 'QK7NOACC1', payment_verification: null });
    await context.close();
  }, 300_000);

  it('refuses to sign out while sales wait, asks before the tab closes, and signs the cashier in again offline', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await expectPending(page, 0);
    await whenOfflineReady(page);

    await context.setOffline(true);
    await scan(page, SODA.barcode);
    await charge(page, 'Cash');
    await expectPending(page, 1);
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-out-blocked').waitFor();
    // Send now, offline: the till says so, and when the sales will go.
    await page.getByTestId('sign-out-send').click();
    expect(await page.getByTestId('sign-out-send-outcome').textContent()).toBe(
      'The till is offline: the sales will be sent when the network is back. Stay signed in until then.',
    );
    await page.getByTestId('sign-out-stay').click();
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-out-send').click();
    expect(await page.getByTestId('sign-out-send-outcome').textContent()).toBe(
      'Till iko nje ya mtandao: mauzo yatatumwa mtandao ukirudi. Endelea kuwa ndani hadi hapo.',
    );
    await page.getByTestId('sign-out-stay').click();
    await page.getByTestId('lang-switch').click();
    expect(await page.getByTestId('product-grid').isVisible()).toBe(true);

    // Closing the tab with a sale unsent asks first.
    const asked = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.type()), void d.dismiss())));
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);

    await context.setOffline(false);
    await expectPending(page, 0, 60_000);
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-in').waitFor();

    // Offline: a wrong password is refused on the till; the right one opens the till, and sales wait for an online sign-in.
    await context.setOffline(true);
    await page.getByTestId('sign-in-identifier').fill(owner.phone);
    await page.getByTestId('sign-in-password').fill('not-the-password-1');
    await page.getByTestId('sign-in-submit').click();
    expect(await page.getByTestId('sign-in-error').textContent()).toContain('this till does not know that password');
    await signIn(page, owner.phone, owner.password);
    await page.getByTestId('offline-signed-in').waitFor();
    await scan(page, SODA.barcode);
    const sale = await charge(page, 'Cash');
    await expectPending(page, 1);
    await context.setOffline(false);
    await page.getByTestId('status-sign-in').click();
    await signIn(page, owner.phone, owner.password);
    await expectPending(page, 0, 60_000);
    const onServer = await shop.t.request('GET', `/pos/transactions/${sale.id}`, { token: owner.token });
    expect(onServer.status, onServer.text).toBe(200);
    expect(onServer.body.data).toMatchObject({ total: 1000, status: 'paid' });
    await context.close();
  }, 300_000);

  it('fits a phone at 390 px with the cart as a drawer, and a counter screen at 1280 px side by side', async () => {
    const context = await shop.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // The browser refuses persistent storage: the owner is told, once.
    await context.addInitScript(() => {
      const storage = navigator.storage as StorageManager;
      storage.persist = async () => false;
      storage.persisted = async () => false;
    });
    const page = await context.newPage();
    await page.goto(`${shop.origin}/till/`);
    await signIn(page, owner.phone, owner.password);
    const widths = () => page.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
    expect(await widths()).toEqual({ doc: 390, body: 390 });
    await page.getByTestId('storage-warning').waitFor();

    expect(await page.getByTestId('cart').isVisible()).toBe(false);
    await scan(page, SODA.barcode);
    await scan(page, SODA.barcode);
    await expect.poll(() => page.getByTestId('cart-open').textContent()).toMatch(/2 · TZS 2,000/);
    await page.getByTestId('cart-open').click();
    const cart = page.getByTestId('cart');
    expect(await cart.isVisible()).toBe(true);
    const box = (await cart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.getByTestId('charge').isVisible()).toBe(true);
    expect(await page.getByTestId('cart-total').textContent()).toMatch(/2,000/);
    await page.getByTestId('charge').click();
    await page.getByTestId('receipt').waitFor();
    expect(await widths()).toEqual({ doc: 390, body: 390 });
    await page.getByTestId('receipt-close').click();
    for (const view of ['sales', 'customers', 'conflicts'] as const) {
      await page.getByTestId(`nav-${view}`).click();
      expect(await widths(), view).toEqual({ doc: 390, body: 390 });
    }
    await page.getByTestId('storage-warning-dismiss').click();
    await page.reload();
    await page.getByTestId('product-grid').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('storage-warning').count()).toBe(0);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('nav-sell').click();
    expect(await page.getByTestId('cart').isVisible()).toBe(true);
    expect(await page.getByTestId('cart-open').isVisible()).toBe(false);
    const grid = (await page.getByTestId('product-grid').boundingBox())!;
    const side = (await page.getByTestId('cart').boundingBox())!;
    expect(side.x).toBeGreaterThan(grid.x + grid.width - 1);
    await context.close();
  }, 300_000);

  it('warns the cashier when the device’s clock is an hour ahead, and the server books the sale at its own time, flagged', async () => {
    const context = await shop.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const HOUR = 3_600_000;
    await page.clock.install({ time: Date.now() + HOUR });
    await page.goto(`${shop.origin}/till/`);
    await signIn(page, owner.phone, owner.password);
    const warning = page.getByTestId('clock-wrong');
    await warning.waitFor({ timeout: 30_000 });
    expect(await warning.textContent()).toMatch(/^This device’s clock is 60 minutes ahead of the server’s/);

    await scan(page, SODA.barcode);
    const sale = await charge(page, 'Cash');
    await expectPending(page, 0, 30_000);
    const onServer = (await shop.t.request('GET', `/pos/transactions/${sale.id}`, { token: owner.token })).body.data;
    const booked = Date.parse(onServer.created_at);
    expect(Math.abs(booked - Date.now())).toBeLessThan(5 * 60_000);
    expect(Date.parse(onServer.client_created_at) - booked).toBeGreaterThan(HOUR - 5 * 60_000);
    await expect.poll(() => page.getByTestId('status-conflicts').getAttribute('data-conflicts'), { timeout: 15_000 }).toBe('1');
    await page.getByTestId('status-conflicts').click();
    expect(await page.getByTestId('conflict').getAttribute('data-kind')).toBe('clock');
    await context.close();
  }, 300_000);

  /** Eight products more, so a sale can have eight lines. */
  async function eightProducts(): Promise<string[]> {
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const barcode = `61611000019${i}0`;
      const res = await shop.t.request('POST', '/inventory/products', {
        token: owner.token,
        body: { name: `Biskuti ${i + 1}`, barcode, selling_price: 500, cost_price: 250, stock: 100 },
      });
      expect(res.status, res.text).toBe(200);
      codes.push(barcode);
    }
    return codes;
  }
  let eight: string[] = [];

  it('keeps the total, the tender and Charge in view with eight lines at 1280×800 and on a 360×740 phone, and the sales list in the phone’s width', async () => {
    eight = await eightProducts();
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    for (const code of eight) await scan(page, code);
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(8);
    for (const id of ['cart-total', 'tender-input', 'charge']) expect(await inView(page, page.getByTestId(id)), id).toBe(true);
    // Mobile money's panel is the tallest: the lines give way, not Charge.
    await page.locator('[data-testid=pay-method][data-method=mobile]').click();
    for (const id of ['cart-total', 'mm-phone', 'charge']) expect(await inView(page, page.getByTestId(id)), id).toBe(true);
    // The lines scroll inside the cart: the last one can be brought into view.
    await page.getByTestId('cart-line').last().scrollIntoViewIfNeeded();
    expect(await inView(page, page.getByTestId('cart-line').last().getByTestId('cart-qty'))).toBe(true);
    expect(await inView(page, page.getByTestId('charge'))).toBe(true);
    await context.close();

    const phone = await shop.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const p = await phone.newPage();
    await p.goto(`${shop.origin}/till/`);
    await signIn(p, owner.phone, owner.password);
    for (const code of eight) await scan(p, code);
    await expect.poll(() => p.getByTestId('cart-open').textContent()).toMatch(/8 · TZS 4,000/);
    await p.getByTestId('cart-open').click();
    for (const id of ['cart-total', 'tender-input', 'charge']) expect(await inView(p, p.getByTestId(id)), id).toBe(true);
    await p.locator('[data-testid=pay-method][data-method=mobile]').click();
    for (const id of ['cart-total', 'mm-phone', 'charge']) expect(await inView(p, p.getByTestId(id)), id).toBe(true);
    await p.locator('[data-testid=pay-method][data-method=Cash]').click();
    await p.getByTestId('charge').click();
    await p.getByTestId('receipt').waitFor();
    await p.getByTestId('receipt-close').click();

    await p.getByTestId('nav-sales').click();
    const row = p.getByTestId('sale-row').first();
    await row.waitFor();
    for (const id of ['sale-view', 'sale-void']) {
      const box = (await row.getByTestId(id).boundingBox())!;
      expect(box.x, id).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, id).toBeLessThanOrEqual(360);
    }
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
    await phone.close();
  }, 300_000);

  it('takes the keyboard to Cash received with F8, and charges on Enter there only when the cash covers the total', async () => {
    const { context, page } = await openApp(shop);
    await signIn(page, owner.phone, owner.password);
    await expectPending(page, 0);
    // A wedge scanner's digits land in the scan field; eight lines and the tiles lie between it and the tender.
    for (const code of eight) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => page.getByTestId('cart-total').getAttribute('data-cents')).toBe('400000');

    await page.keyboard.press('F8');
    await expect.poll(() => focused(page)).toBe('tender-input');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('tender-why').textContent()).toBe('Type the cash received, then Enter (F9 charges without it).');
    await page.keyboard.type('3500');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('tender-why').textContent()).toBe('Not charged: the cash received is TZS 500 less than the total.');
    expect(await page.getByTestId('receipt').count()).toBe(0);

    // F8 again selects the figure, so the next one replaces it.
    await page.getByTestId('scan-input').focus();
    await page.keyboard.press('F8');
    await expect.poll(() => focused(page)).toBe('tender-input');
    await page.keyboard.type('5000');
    await page.keyboard.press('Enter');
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    expect(await page.getByTestId('receipt-change').textContent()).toMatch(/TZS 1,000$/);
    const id = (await receipt.getAttribute('data-sale-id'))!;
    await page.keyboard.press('Escape');
    await expectPending(page, 0, 30_000);
    const onServer = await shop.t.request('GET', `/pos/transactions/${id}`, { token: owner.token });
    expect(onServer.body.data).toMatchObject({ total: 4000, payment_method: 'Cash', cash_tendered: 5000, change_given: 1000 });
    await context.close();
  }, 300_000);
});

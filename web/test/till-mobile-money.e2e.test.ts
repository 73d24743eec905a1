/**
 * Issue 38's "done" for the browser till, in a real Chromium: the shop has a Selcom collection
 * account on a local Selcom; the cashier scans, picks mobile money, types the customer's number as
 * people write it, finds M-Pesa preselected, and asks the phone. Selcom receives the push for the
 * amount and the number, posts its signed webhook, and the till shows the paid sale's receipt with
 * the store's receipt number. Then a push cancelled (its stock back) and paid in cash instead; and
 * a sale offline by the reference from the customer's SMS, unconfirmed until Selcom reports it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SelcomFake } from '../../test/fakes/selcom-fake.js';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { expectPending, openApp, scan, signIn, startShop, type Shop } from './browser.js';

const SELCOM = { apiKey: 'selcom-key-0123-8842', apiSecret: 'selcom-SECRET-5e1d', vendor: 'TILL61000042' };
const SUKARI = { name: 'Sukari 1kg', barcode: '6161100000031', selling_price: 6250, cost_price: 5000, stock: 20 };

describe('the browser till: mobile money by push', () => {
  const selcom = new SelcomFake(SELCOM);
  let shop: Shop;
  let owner: Session;
  let sukari: string;
  let page: Page;
  /** Where Selcom posts the payments customers make to the shop's till number, on this run's port. */
  let callbackUrl: string;

  beforeAll(async () => {
    await selcom.start();
    shop = await startShop({ config: { SELCOM_URL: selcom.url } });
    // The callback URL names the server's public origin; the fake posts to this run's port instead.
    selcom.webhookOrigin = shop.origin;
    owner = await registerOwner(shop.t);
    const product = await shop.t.request('POST', '/inventory/products', { token: owner.token, body: SUKARI });
    expect(product.status, product.text).toBe(200);
    sukari = product.body.data.id;
    const account = await shop.t.request('POST', '/payments/collection-accounts', {
      token: owner.token,
      body: { provider: 'selcom', label: 'Selcom', credentials: SELCOM },
    });
    expect(account.status, account.text).toBe(201);
    callbackUrl = (account.body.data.callback_url as string).replace(/^https?:\/\/[^/]+/, shop.origin);
  }, 120_000);
  afterAll(async () => {
    await shop?.close();
    await selcom.stop();
  });

  const stock = async () =>
    (await shop.t.request('GET', `/inventory/products/${sukari}`, { token: owner.token })).body.data.stock as number;
  const serverSale = async (id: string) => (await shop.t.request('GET', `/pos/transactions/${id}`, { token: owner.token })).body.data;
  /** Mobile money for the cart, to this number: answers the wait's request id once the phone was asked. */
  async function askPhone(typed: string): Promise<string> {
    await page.locator('[data-testid=pay-method][data-method="mobile"]').click();
    await page.getByTestId('mm-phone').fill(typed);
    await page.getByTestId('mm-ask').click();
    const wait = page.locator('[data-testid=mm-wait][data-status=awaiting_payment]');
    await wait.waitFor();
    return (await wait.getAttribute('data-request-id'))!;
  }

  it('asks the customer’s phone, and shows the receipt with its store number once Selcom says paid', async () => {
    ({ page } = await openApp(shop));
    await signIn(page, owner.phone, owner.password);
    await scan(page, `2*${SUKARI.barcode}`);

    await page.locator('[data-testid=pay-method][data-method="mobile"]').click();
    await page.getByTestId('mm-phone').fill('0754 12');
    expect(await page.getByTestId('mm-phone-error').textContent()).toBe('Too short: a mobile number has 9 digits after the 0');
    expect(await page.getByTestId('mm-ask').isDisabled()).toBe(true);
    await page.getByTestId('mm-phone').fill('0754 123 456');
    expect(await page.getByTestId('mm-phone-error').count()).toBe(0);
    expect(await page.locator('[data-testid=mm-wallet][aria-checked=true]').getAttribute('data-method')).toBe('M-Pesa');
    expect(await page.getByTestId('mm-amount').textContent()).toBe('Amount: TZS 12,500');
    await page.getByTestId('mm-ask').click();

    const wait = page.locator('[data-testid=mm-wait][data-status=awaiting_payment]');
    await wait.waitFor();
    const id = (await wait.getAttribute('data-request-id'))!;
    expect(await page.getByTestId('mm-waiting').textContent()).toBe(
      'Waiting for the customer to confirm on 0754 123 456 · M-Pesa · TZS 12,500',
    );
    const order = selcom.orders.get([...selcom.orders.keys()].at(-1)!)!;
    expect(order).toMatchObject({ amount: 12500, buyer_phone: '255754123456', pushed_to: '255754123456', payment_status: 'PENDING' });
    const pushed = selcom.requests.filter((r) => r.url === '/v1/checkout/wallet-payment').map((r) => JSON.parse(r.body));
    expect(pushed).toEqual([expect.objectContaining({ order_id: order.order_id, msisdn: '255754123456' })]);
    expect(await stock()).toBe(18);

    expect(await selcom.webhook(order.order_id)).toBe(200);
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    const sale = await serverSale(id);
    expect(sale).toMatchObject({
      id,
      payment_method: 'M-Pesa',
      payment_phone: '+255754123456',
      payment_verification: 'verified',
      total: 12500,
      status: 'paid',
    });
    expect(await receipt.getAttribute('data-sale-id')).toBe(id);
    expect(await page.getByTestId('receipt-number').textContent()).toBe(sale.receipt_number);
    expect(await page.getByTestId('receipt-paid-by').getAttribute('data-method')).toBe('M-Pesa');
    expect(await page.getByTestId('receipt-phone').textContent()).toBe('From 0754 123 456');
    expect(await page.getByTestId('receipt-verification').getAttribute('data-verification')).toBe('verified');
    expect(await page.getByTestId('receipt-total').textContent()).toBe('TZS 12,500');
    await page.getByTestId('receipt-close').click();
    expect(await stock()).toBe(18);
  }, 300_000);

  it('cancelled: the stock comes back; the customer pays cash instead, the same sale', async () => {
    await scan(page, SUKARI.barcode);
    const id = await askPhone('+255 781 000 111');
    expect(await page.getByTestId('mm-waiting').textContent()).toBe(
      'Waiting for the customer to confirm on 0781 000 111 · Airtel Money · TZS 6,250',
    );
    expect(await stock()).toBe(17);

    await page.getByTestId('mm-cancel').click();
    await page.locator('[data-testid=mm-wait][data-status=cancelled]').waitFor();
    expect(await page.getByTestId('mm-over').textContent()).toBe('Cancelled: nothing was sold and the stock is back');
    expect(await page.getByTestId('mm-waiting').textContent()).toBe('Asked 0781 000 111 · Airtel Money · TZS 6,250');
    expect(await stock()).toBe(18);

    await page.getByTestId('mm-cash').click();
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    expect(await receipt.getAttribute('data-sale-id')).toBe(id);
    expect(await page.getByTestId('receipt-paid-by').getAttribute('data-method')).toBe('Cash');
    await page.getByTestId('receipt-close').click();
    await expectPending(page, 0, 30_000);
    expect(await serverSale(id)).toMatchObject({ id, payment_method: 'Cash', total: 6250, status: 'paid' });
    expect(await stock()).toBe(17);
  }, 120_000);

  it('by SMS reference offline: Charge waits for the reference; the receipt says the payment is unconfirmed, on screen and paper, in both languages, until the provider’s report confirms it', async () => {
    const context = page.context();
    const check = page.getByTestId('receipt-verification');
    const note = page.getByTestId('receipt-verification-note');
    await context.setOffline(true);
    await expect.poll(() => page.getByTestId('status-online').getAttribute('data-online')).toBe('false');
    await scan(page, SUKARI.barcode);
    await page.locator('[data-testid=pay-method][data-method="mobile"]').click();
    await page.getByTestId('mm-phone').fill('0754 123 456');
    // Offline the till promises no check: it says what the receipt will say, and what decides it.
    const sms = page.getByTestId('mm-sms-note');
    expect(await sms.getAttribute('data-reason')).toBe('offline');
    expect(await sms.textContent()).not.toContain('checked once the till is back online');
    expect(await sms.textContent()).toContain(
      'The receipt says the payment is unconfirmed; once the sale is sent it shows what the server found',
    );
    // No reference, no charge, and the till says why.
    expect(await page.getByTestId('charge').isDisabled()).toBe(true);
    expect(await page.getByTestId('mm-reference-missing').textContent()).toBe(
      'Type the reference from the customer’s SMS to charge: it is how the payment is found.',
    );
    await page.getByTestId('pay-reference').fill('SELTILL01');
    expect(await page.getByTestId('mm-reference-missing').count()).toBe(0);
    await page.getByTestId('charge').click();
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    const id = (await receipt.getAttribute('data-sale-id'))!;
    expect(await check.getAttribute('data-verification')).toBe('pending');
    expect(await check.locator('strong').textContent()).toBe('Payment unconfirmed');
    expect(await note.textContent()).toBe(
      'The till has only the reference typed from the customer’s SMS. Once the sale is sent, this receipt shows whether the provider confirmed it.',
    );
    // Printed through the browser's dialog: "Payment unconfirmed" is on the paper, the note for the cashier is not.
    await page.emulateMedia({ media: 'print' });
    expect([await check.isVisible(), await note.isVisible()]).toEqual([true, false]);
    await page.emulateMedia({ media: 'screen' });
    await page.getByTestId('receipt-close').click();

    // In Kiswahili, in the sales list and on the receipt.
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('nav-sales').click();
    const row = page.locator(`[data-testid=sale-row][data-sale-id="${id}"]`);
    expect(await row.getByTestId('sale-payment-check').textContent()).toBe('malipo hayajathibitishwa');
    await row.getByTestId('sale-view').click();
    expect(await check.locator('strong').textContent()).toBe('Malipo hayajathibitishwa');
    expect(await note.textContent()).toMatch(/^Till ina kumbukumbu iliyoandikwa kutoka SMS ya mteja tu\./);
    await page.getByTestId('receipt-close').click();
    await page.getByTestId('lang-switch').click();

    // Sent: the shop has a collection account, so the server waits for Selcom's report of the payment.
    await context.setOffline(false);
    await expectPending(page, 0, 60_000);
    expect(await serverSale(id)).toMatchObject({ payment_reference: 'SELTILL01', payment_verification: 'unverified', total: 6250 });
    await row.getByTestId('sale-view').click();
    await expect.poll(() => check.getAttribute('data-verification'), { timeout: 15_000 }).toBe('unverified');
    expect(await check.locator('strong').textContent()).toBe('Payment unconfirmed');
    expect(await note.textContent()).toBe(
      'Waiting for the provider’s report of this payment: it is matched by the reference and the amount.',
    );

    // The customer's payment reaches Selcom, which reports it: the open receipt and the sales list say confirmed.
    expect(await selcom.customerPaid(callbackUrl, { transid: 'SELTILL01', amount: '6250', phone: '255754123456' })).toBe(200);
    await expect.poll(() => check.getAttribute('data-verification'), { timeout: 30_000 }).toBe('verified');
    expect(await check.textContent()).toBe('Payment confirmed by the provider');
    expect(await serverSale(id)).toMatchObject({ payment_verification: 'verified' });
    await page.getByTestId('receipt-close').click();
    expect(await row.getByTestId('sale-payment-check').textContent()).toBe('confirmed');
  }, 180_000);
});

/**
 * Settings' TRA receipts and plan and billing at 390×844 and 1280×800, against one shop whose
 * server talks to a local fake TRA (test/fakes/tra-fake.ts: it checks every signature and
 * counter) and to a fake mobile-money provider for Duka's own billing (test/setup/fake-payments.ts).
 * TRA: a wrong certificate password is refused with the field marked, the input kept, nothing
 * saved or registered; the right one saves (the file and password never shown back), Register
 * registers once with TRA, switching receipts on makes the next sale a receipt TRA acknowledges.
 * Billing: a push the provider refuses is shown in its words; a plan change pushes the price to
 * the owner's phone, the plan shown changes once the provider's callback says paid, the invoices
 * are listed, and returning to free is scheduled. A manager sees neither.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, e164, registerOwner, uniquePhone } from '../../test/setup/factories.js';
import { CALLBACK_SECRET, callbackBody, FakePayments } from '../../test/setup/fake-payments.js';
import { fiscalWorld } from '../../test/setup/fiscal.js';
import { traAnswerKeyPair } from '../../test/setup/tra-cert.js';
import { PaymentRejected } from '../../server/src/mobile-money/provider.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { goTo, menu, openOffice, signInOffice, VIEWPORTS, type Viewport } from './office.js';

const SIZES = Object.keys(VIEWPORTS) as Viewport[];

describe('the back office: TRA receipts, plan and billing', () => {
  // One taxpayer (TIN, certificate) per viewport: each flow registers a store of its own.
  const w = fiscalWorld(SIZES.length);
  const pay = new FakePayments();
  let shop: Shop;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'duka-pfx-'));
    await w.tra.start();
    shop = await startShop({
      apps: ['office'],
      config: { TRA_TEST_URL: w.tra.url, TRA_TIMEOUT_MS: 5_000, TRA_ANSWER_CERT: traAnswerKeyPair().publicKeyPem },
    });
    shop.t.deps.subscriptionPayments = pay;
  }, 120_000);
  afterAll(async () => {
    await shop?.t.deps.fiscal.idle();
    await shop?.close();
    await w.tra.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(SIZES)('registers the store with TRA and fiscalises its sales, at %s size', async (viewport) => {
    const i = SIZES.indexOf(viewport);
    const cert = w.certs[i]!;
    const device = w.tra.device(cert.serial);
    const pfx = path.join(dir, `${viewport}.pfx`);
    await writeFile(pfx, Buffer.from(cert.pfxBase64, 'base64'));
    const owner = await registerOwner(shop.t);
    const fiscal = () => shop.t.request('GET', `/stores/${owner.storeId}/fiscal`, { token: owner.token });

    const { context, page } = await openOffice(shop, viewport);
    await signInOffice(page, owner.phone, owner.password);
    await goTo(page, 'settings');
    const form = page.getByTestId('fiscal-form');
    await form.waitFor();
    expect(await page.getByTestId('fiscal-none').textContent()).toBe('Not set up yet for this store.');
    expect(await page.getByTestId('fiscal-certificate-state').textContent()).toBe('not set');
    const input = (name: string) => form.locator(`[name=${name}]`);
    const chosenFiles = () => page.getByTestId('fiscal-certificate').evaluate((el) => (el as HTMLInputElement).files?.length ?? 0);
    await input('tin').fill(w.tin(i));
    await input('vrn').fill('40000000K');
    await input('cert_key').fill(w.certKey(i));
    await input('cert_serial').fill(cert.serial);
    await page.getByTestId('fiscal-certificate').setInputFiles(pfx);

    // A wrong password: the server's words under the certificate, everything typed still there.
    await input('certificate_password').fill('not-the-password');
    await page.getByTestId('fiscal-save').click();
    await form.getByTestId('error-certificate').waitFor();
    expect(await form.getByTestId('error-certificate').textContent()).toBe('the password does not open it');
    expect(await form.locator('[data-field=certificate]').getAttribute('class')).toContain('invalid');
    expect(await input('tin').inputValue()).toBe(w.tin(i));
    expect(await input('cert_serial').inputValue()).toBe(cert.serial);
    expect(await input('certificate_password').inputValue()).toBe('not-the-password');
    expect(await chosenFiles()).toBe(1);
    expect((await fiscal()).status).toBe(404);

    // The right one, with Enter: saved, and neither the file nor the password is in the page again.
    await input('certificate_password').fill(cert.password);
    await input('certificate_password').press('Enter');
    await page.getByTestId('fiscal-saved').waitFor();
    expect(await page.getByTestId('fiscal-certificate-state').textContent()).toBe('set');
    expect(await input('certificate_password').inputValue()).toBe('');
    expect(await chosenFiles()).toBe(0);
    expect(await page.getByTestId('fiscal-status').textContent()).toContain('Not registered with TRA yet');
    expect(device.registrations).toBe(0);
    await page.reload();
    await page.getByTestId('fiscal-status').waitFor();
    expect(await page.getByTestId('fiscal-certificate-state').textContent()).toBe('set');
    expect(await input('certificate_password').inputValue()).toBe('');
    expect(await page.content()).not.toContain(cert.password);

    // Register: TRA registered this TIN's device once; the page and the API say so.
    await page.getByTestId('fiscal-register').click();
    await page
      .getByTestId('fiscal-status')
      .filter({ hasText: `Registered with TRA: ${device.taxpayer.regId}` })
      .waitFor();
    expect(device.taxpayer.tin).toBe(w.tin(i));
    expect(device.registrations).toBe(1);
    expect(await page.getByTestId('fiscal-register').count()).toBe(0);
    expect(await input('tin').isDisabled()).toBe(true);
    const registered = await fiscal();
    expect(registered.body.data).toMatchObject({
      tin: w.tin(i),
      cert_serial: cert.serial,
      has_certificate: true,
      enabled: false,
      registration: { regid: device.taxpayer.regId, receipt_code: device.taxpayer.receiptCode },
    });
    expect(registered.text).not.toContain(cert.password);

    // Receipts on: the next sale is a receipt TRA acknowledges.
    await page.getByTestId('fiscal-enabled').check();
    await page.getByTestId('fiscal-save').click();
    await page.getByTestId('fiscal-status').filter({ hasText: 'Fiscalising every sale' }).waitFor();
    expect((await fiscal()).body.data).toMatchObject({ enabled: true });
    const product = await shop.t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Sukari 1kg', selling_price: 3500, stock: 20 },
    });
    expect(product.status, product.text).toBe(200);
    const sale = await shop.t.request('POST', '/pos/sale', {
      token: owner.token,
      body: { lines: [{ product_id: product.body.data.id, qty: 2 }], payment_method: 'Cash' },
    });
    expect(sale.status, sale.text).toBe(201);
    await shop.t.deps.fiscal.idle();
    const read = await shop.t.request('GET', `/pos/transactions/${sale.body.data.id}`, { token: owner.token });
    expect(read.body.data.fiscal).toMatchObject({ status: 'issued', gc: 1, rctvnum: `${device.taxpayer.receiptCode}1` });
    expect(device.receipts.map((r) => [r.gc, r.totalInclCents])).toEqual([[1, 700_000]]);
    expect(w.tra.violations).toEqual([]);

    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it.each(SIZES)('changes plan by a push to the phone and returns to free at the period end, at %s size', async (viewport) => {
    const cycle = viewport === 'phone' ? 'monthly' : 'yearly';
    const price = cycle === 'monthly' ? 15_000 : 150_000;
    const shown = `TSh ${price.toLocaleString('en-GB')}`;
    const phone = uniquePhone();
    const owner = await registerOwner(shop.t);
    const { context, page } = await openOffice(shop, viewport);
    await signInOffice(page, owner.phone, owner.password);
    await goTo(page, 'settings');
    const current = page.getByTestId('plan-current');
    await current.waitFor();
    expect(await current.textContent()).toContain('Free, active');
    expect(await page.getByTestId('plan-cancel').count()).toBe(0);

    await page.getByTestId('plan-change').click();
    const form = page.getByTestId('plan-form');
    await form.locator('select[name=billing_cycle]').selectOption(cycle);
    const plans = form.locator('select[name=plan_code] option');
    // Free is not bought (returning to it is the cancel button); the prices follow the cycle.
    expect(await plans.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['', 'biashara', 'pro']);
    expect(await form.locator('option[value=biashara]').textContent()).toBe(
      `Business · ${shown} a ${cycle === 'monthly' ? 'month' : 'year'}`,
    );
    await form.locator('select[name=plan_code]').selectOption('biashara');
    await form.locator('select[name=network]').selectOption('airtel');
    await form.locator('input[name=phone]').fill(phone);

    // The provider refuses the first push: its words on the form, the input kept, still on free.
    pay.reject = new PaymentRejected('Insufficient balance', false);
    try {
      await form.locator('input[name=phone]').press('Enter');
      await page.getByTestId('plan-refused').waitFor();
    } finally {
      pay.reject = null;
    }
    expect(await page.getByTestId('plan-refused').textContent()).toBe('The payment was refused: Insufficient balance');
    expect(await form.locator('input[name=phone]').inputValue()).toBe(phone);
    expect(await page.getByTestId('plan-waiting').count()).toBe(0);
    await form.locator('input[name=phone]').press('Enter');

    // The price is asked of that phone, once; nothing changes before the money arrives.
    const waiting = page.getByTestId('plan-waiting');
    await waiting.waitFor();
    expect(await waiting.textContent()).toContain(`${shown} asked of ${e164(phone)} for Business`);
    const pushes = pay.pushes.filter((p) => p.phone === e164(phone).slice(1));
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ amountTzs: price, network: 'airtel' });
    expect(await current.textContent()).toContain('Free, active');
    // Newest first: this checkout's invoice, and the refused one's, superseded.
    const invoice = page.getByTestId('invoices-row').first();
    await invoice.locator('[data-status=open]').waitFor();
    expect(await page.getByTestId('invoices-row').nth(1).textContent()).toContain('cancelled');
    expect(await invoice.textContent()).toContain(shown);
    expect(await invoice.textContent()).toContain('awaiting payment');

    // The provider's callback says paid: the page shows the plan without a reload.
    const paid = await shop.t.request('POST', '/subscriptions/callbacks/fakepay', {
      raw: callbackBody(pushes[0]!),
      headers: { 'content-type': 'application/json', 'x-fake-secret': CALLBACK_SECRET },
    });
    expect(paid.status, paid.text).toBe(200);
    await page.getByTestId('plan-paid').waitFor({ timeout: 15_000 });
    expect(await current.textContent()).toContain('Business, active');
    expect(await current.textContent()).toContain('Paid until');
    await invoice.locator('[data-status=paid]').waitFor();
    expect(await page.getByTestId('invoices-row').count()).toBe(2);
    // On a paid plan, free is still not offered: the way back is the cancel button.
    expect(await plans.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['', 'biashara', 'pro']);

    // Return to free at the period end: the page and the API agree, and the plan runs until then.
    await page.getByTestId('plan-cancel').click();
    await page.getByTestId('plan-cancelling').waitFor();
    expect(await page.getByTestId('plan-cancel').count()).toBe(0);
    const api = await shop.t.request('GET', '/subscriptions/current', { token: owner.token });
    expect(api.body.data).toMatchObject({
      plan: { code: 'biashara' },
      billing_cycle: cycle,
      status: 'active',
      cancel_at_period_end: true,
      scheduled_change: { plan_code: 'free' },
    });

    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it('shows a manager no Settings, so no plan and billing; the API refuses them too', async () => {
    const owner = await registerOwner(shop.t);
    const manager = await createStaff(shop.t, owner, { role: 'manager' });
    const { context, page } = await openOffice(shop, 'phone');
    await signInOffice(page, manager.phone, manager.password);
    await page.getByTestId('today-sales').waitFor();
    expect(await menu(page)).not.toContain('settings');
    await page.goto(`${shop.origin}/office/settings`);
    await page.getByTestId('refused').waitFor();
    expect(await page.getByTestId('settings-billing').count()).toBe(0);
    expect(await page.getByTestId('settings-fiscal').count()).toBe(0);
    for (const route of ['/subscriptions/current', '/subscriptions/invoices', `/stores/${owner.storeId}/fiscal`])
      expect((await shop.t.request('GET', route, { token: manager.token })).status, route).toBe(403);
    await context.close();
  });
});

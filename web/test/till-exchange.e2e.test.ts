/**
 * Issue 52's exchange at the browser till, in a real Chromium: in an open shift (float 20,000), a
 * shirt of 20,000 sold in cash, then offline from the Sales screen's "Exchange": it comes back for
 * one of 25,000 scanned in the form, the 5,000 shown before confirming and paid by M-Pesa (its
 * reference typed). Online again the till syncs and the server's figures are exact: both stocks, the
 * old sale refunded, the new sale paid Cash 20,000 + M-Pesa 5,000, the shift's cash and M-Pesa. Then
 * a shirt of 25,000 swapped offline for socks of 12,500: 12,500 given back in cash.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { charge, expectPending, openApp, scan, signIn, startShop, type Shop, whenOfflineReady } from './browser.js';

const MEDIUM = { name: 'Shati M', barcode: '6161100000710', selling_price: 20000, stock: 10 };
const LARGE = { name: 'Shati L', barcode: '6161100000727', selling_price: 25000, stock: 10 };
const SOCKS = { name: 'Soksi', barcode: '6161100000734', selling_price: 12500, stock: 10 };

const tileStock = async (page: Page, name: string) => {
  await page.getByTestId('product-search').fill(name);
  const stock = await page.locator(`[data-testid=product-tile][data-name="${name}"]`).getAttribute('data-stock');
  await page.getByTestId('product-search').fill('');
  return Number(stock);
};

describe('the browser till: an exchange offline', () => {
  let shop: Shop;
  let owner: Session;
  let page: Page;
  let context: Awaited<ReturnType<typeof openApp>>['context'];
  const ids: Record<string, string> = {};
  const get = async (path: string) => (await shop.t.request('GET', path, { token: owner.token })).body.data;
  const stock = async (name: string) => (await get(`/inventory/products/${ids[name]}`)).stock;
  const shiftLine = async (shiftId: string, method: string) =>
    (await get(`/pos/shifts/${shiftId}`)).report.methods.find((m: { method: string }) => m.method === method);

  /** The till signed in, its shift opened with a float of 20,000 (in a test: it waits with expect.poll). */
  const openTill = async () => {
    ({ context, page } = await openApp(shop));
    await signIn(page, owner.phone, owner.password);
    await whenOfflineReady(page);
    await page.getByTestId('no-shift-open').click();
    await page.getByTestId('shift-float').fill('20,000');
    await page.getByTestId('shift-open').click();
    await page.getByTestId('shift-close-form').waitFor();
    await expectPending(page, 0, 30_000);
  };

  /** A sale of one `product` in cash, synced; then offline, its Exchange form with `back` of its line typed. */
  const sellThenExchange = async (product: typeof MEDIUM, out: typeof MEDIUM) => {
    await page.getByTestId('nav-sell').click();
    await scan(page, product.barcode);
    const sold = await charge(page, 'Cash');
    await expectPending(page, 0, 30_000);
    await context.setOffline(true);
    await page.getByTestId('nav-sales').click();
    const row = page.locator(`[data-testid=sale-row][data-sale-id="${sold.id}"]`);
    const receipt = (await row.getAttribute('data-receipt'))!;
    await row.getByTestId('sale-exchange').click();
    const form = page.getByTestId('exchange-form');
    await form
      .locator(`[data-testid=exchange-back-line][data-product-id="${ids[product.name]}"]`)
      .getByTestId('exchange-back-qty')
      .fill('1');
    await scan(page, out.barcode);
    await form.locator(`[data-testid=exchange-out-line][data-product-id="${ids[out.name]}"]`).waitFor();
    return { id: sold.id, receipt, form };
  };

  beforeAll(async () => {
    shop = await startShop();
    owner = await registerOwner(shop.t);
    for (const p of [MEDIUM, LARGE, SOCKS]) {
      const res = await shop.t.request('POST', '/inventory/products', { token: owner.token, body: p });
      expect(res.status, res.text).toBe(200);
      ids[p.name] = res.body.data.id;
    }
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await shop?.close();
  });

  it('a 20,000 shirt back for a 25,000 one, 5,000 by M-Pesa offline: stock, sales and shift exact on the server', async () => {
    await openTill();
    const { id, receipt, form } = await sellThenExchange(MEDIUM, LARGE);
    const difference = form.getByTestId('exchange-difference');
    expect(await difference.getAttribute('data-cents')).toBe('500000');
    expect((await difference.textContent())?.trim()).toBe('Customer pays TZS 5,000');
    expect(await form.getByTestId('exchange-amounts').textContent()).toBe('Back: TZS 20,000 · Out: TZS 25,000');
    await form.locator('[data-testid=exchange-method][data-method="M-Pesa"]').click();
    await form.getByTestId('reversal-reason').fill('Too small');
    // No reference from the customer's SMS yet: the exchange waits, and says why.
    expect(await form.getByTestId('exchange-fault').getAttribute('data-fault')).toBe('reference');
    expect(await form.getByTestId('exchange-confirm').isDisabled()).toBe(true);
    await form.getByTestId('exchange-reference').fill('QK7EXCH50X');
    await form.getByTestId('exchange-confirm').click();

    await expect.poll(() => page.getByTestId('sales-message').textContent()).toBe(`Exchanged on ${receipt}: TZS 5,000 paid`);
    expect(await form.count()).toBe(0);
    // The refund and the new sale, one mutation.
    await expectPending(page, 1);
    await page.getByTestId('nav-sell').click();
    expect([await tileStock(page, MEDIUM.name), await tileStock(page, LARGE.name)]).toEqual([10, 9]);

    await context.setOffline(false);
    await expectPending(page, 0, 60_000);
    expect([await stock(MEDIUM.name), await stock(LARGE.name)]).toEqual([10, 9]);
    expect(await get(`/pos/transactions/${id}`)).toMatchObject({ status: 'refunded', total: 20000, refunded_total: 20000 });
    await page.getByTestId('nav-sales').click();
    const newId = (await page.getByTestId('sale-row').first().getAttribute('data-sale-id'))!;
    const sale = await get(`/pos/transactions/${newId}`);
    expect(sale).toMatchObject({ status: 'paid', total: 25000, payment_method: 'Mixed' });
    expect(
      sale.payments.map((p: { method: string; amount: number; reference: string | null }) => [p.method, p.amount, p.reference]),
    ).toEqual([
      ['Cash', 20000, null],
      ['M-Pesa', 5000, 'QK7EXCH50X'],
    ]);
    // Cash: 20,000 float + 40,000 sold − 20,000 refunded; M-Pesa: the 5,000 difference.
    expect(await shiftLine(sale.shift_id, 'Cash')).toMatchObject({ opening_float: 20000, sales: 40000, refunds: 20000, expected: 40000 });
    expect(await shiftLine(sale.shift_id, 'M-Pesa')).toMatchObject({ sales: 5000, refunds: 0, expected: 5000 });
  }, 120_000);

  it('a 25,000 shirt back for 12,500 socks: 12,500 given back in cash', async () => {
    const { id, receipt, form } = await sellThenExchange(LARGE, SOCKS);
    const difference = form.getByTestId('exchange-difference');
    expect(await difference.getAttribute('data-cents')).toBe('-1250000');
    expect((await difference.textContent())?.trim()).toBe('Give back TZS 12,500');
    expect(await form.getByTestId('exchange-method').evaluateAll((els) => els.map((e) => e.getAttribute('data-method')))).toEqual(['Cash']);
    await form.getByTestId('reversal-reason').fill('Wrong gift');
    await form.getByTestId('exchange-confirm').click();
    await expect.poll(() => page.getByTestId('sales-message').textContent()).toBe(`Exchanged on ${receipt}: TZS 12,500 given back`);

    await context.setOffline(false);
    await expectPending(page, 0, 60_000);
    expect([await stock(LARGE.name), await stock(SOCKS.name)]).toEqual([9, 9]);
    const old = await get(`/pos/transactions/${id}`);
    expect(old).toMatchObject({ status: 'refunded', refunded_total: 25000 });
    // The drawer: 40,000 before, + 25,000 for the shirt, − 12,500 given back.
    expect(await shiftLine(old.shift_id, 'Cash')).toMatchObject({ sales: 77500, refunds: 45000, expected: 52500 });
  }, 120_000);
});

/**
 * Issue 52 in a real Chromium: the owner opens a stock count of soda and rice over REST; two
 * browser tills pick it on their "Count stock" screen, go offline and count the same products
 * (sodas scanned and typed, rice weighed in kg typed with decimals) while a third browser till
 * sells soda and rice online; back online the counts are sent, and the review shows counted = both
 * tills' counts summed, expected = the level when the product was counted (before the sale, made
 * after the counts though it reached the server first), variance in units and money exact. Applying
 * moves stock exactly; applying again nothing.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner, type Session } from '../../test/setup/factories.js';
import { charge, expectPending, openApp, scan, signIn, startShop, type Shop } from './browser.js';

const SODA = { name: 'Soda 500ml', barcode: '6161100000017', selling_price: 1000, cost_price: 700, stock: 40 };
const RICE = { name: 'Mchele', unit: 'kg', barcode: '6161100000702', selling_price: 3600, cost_price: 2900, stock: 3 };

/** Scans `codes` within one task of the page, each its digits then Enter: all are in before any is looked up. */
async function scanCounts(page: Page, codes: string[]): Promise<void> {
  await page.getByTestId('count-scan').evaluate((el, all) => {
    const input = el as HTMLInputElement;
    for (const code of all) {
      input.value = code;
      input.form!.requestSubmit();
    }
  }, codes);
}

const row = (page: Page, productId: string) => page.locator(`[data-testid=count-row][data-product-id="${productId}"]`);
const here = (page: Page, productId: string) => row(page, productId).getAttribute('data-here');

describe('the browser till: counting a stock-take on two tills offline while a third sells', () => {
  let shop: Shop;
  let owner: Session;
  const ids: Record<string, string> = {};
  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await shop.t.request(method, path, { token: owner.token, body });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const stock = async (id: string) => (await rest('GET', `/inventory/products/${id}`)).stock;

  beforeAll(async () => {
    shop = await startShop();
    owner = await registerOwner(shop.t);
    for (const p of [SODA, RICE]) ids[p.name] = (await rest('POST', '/inventory/products', p)).id;
  }, 120_000);
  afterAll(() => shop?.close());

  it('sums both tills’ offline counts against the level when counted; applies exactly, once', async () => {
    const soda = ids[SODA.name]!;
    const rice = ids[RICE.name]!;
    const tills = [];
    for (let i = 0; i < 3; i++) {
      const opened = await openApp(shop);
      await signIn(opened.page, owner.phone, owner.password);
      await expectPending(opened.page, 0, 30_000);
      tills.push(opened);
    }
    const [a, b, seller] = tills as [(typeof tills)[0], (typeof tills)[0], (typeof tills)[0]];
    const take = await rest('POST', '/inventory/stock-takes', { scope: 'products', product_ids: [soda, rice], note: 'Shelf A' });

    // Online, each counting till picks the open count (kept for the outage), then goes offline.
    for (const { context, page } of [a, b]) {
      await page.getByTestId('nav-count').click();
      const option = page.locator(`[data-testid=count-take][data-stock-take-id="${take.id}"]`);
      expect(await option.textContent()).toBe('Shelf A · 2 products');
      await option.click();
      await page.getByTestId('count-screen').waitFor();
      expect(await page.getByTestId('count-progress').textContent()).toBe('0 of 2 products counted on this till');
      await context.setOffline(true);
    }

    // Till A: three sodas scanned faster than they are looked up, then rice's barcode asks how many kg.
    await scanCounts(a.page, [SODA.barcode, SODA.barcode, SODA.barcode]);
    await expect.poll(() => here(a.page, soda)).toBe('3');
    expect(await a.page.getByTestId('count-notice').textContent()).toBe('Soda 500ml: +1, 3 counted here');
    await scanCounts(a.page, [RICE.barcode]);
    await a.page.getByTestId('count-ask-input').fill('2,375');
    await a.page.getByTestId('count-ask-input').press('Enter');
    await expect.poll(() => here(a.page, rice)).toBe('2.375');
    expect(await row(a.page, rice).getByTestId('count-here').textContent()).toBe('Counted here: 2.375 kg');
    expect(await a.page.getByTestId('count-progress').textContent()).toBe('2 of 2 products counted on this till');
    await expectPending(a.page, 4);

    // Till B: 7 sodas typed (1.5 refused: whole pieces), one more scanned, 0.5 kg of rice typed on its row.
    const sodaRow = row(b.page, soda);
    await sodaRow.getByTestId('count-qty').fill('1.5');
    await sodaRow.getByTestId('count-add').click();
    expect(await sodaRow.getByTestId('count-wrong').textContent()).toBe('Whole pieces, 0 or more.');
    await sodaRow.getByTestId('count-qty').fill('7');
    await sodaRow.getByTestId('count-add').click();
    await expect.poll(() => here(b.page, soda)).toBe('7');
    await scanCounts(b.page, [SODA.barcode]);
    await expect.poll(() => here(b.page, soda)).toBe('8');
    await b.page.getByTestId('count-search').fill('mche');
    await row(b.page, rice).getByTestId('count-qty').fill('0.5');
    await row(b.page, rice).getByTestId('count-qty').press('Enter');
    await expect.poll(() => here(b.page, rice)).toBe('0.5');
    await expectPending(b.page, 3);

    // Meanwhile the third till sells online, after the counts were made but before any arrives: 2 sodas and 0.5 kg of rice.
    await scan(seller.page, SODA.barcode);
    await scan(seller.page, SODA.barcode);
    await scan(seller.page, RICE.barcode);
    await seller.page.getByTestId('ask-quantity-input').fill('0.5');
    await seller.page.getByTestId('ask-quantity-input').press('Enter');
    // 2 × 1,000 + 0.5 kg × 3,600.
    await expect.poll(() => seller.page.getByTestId('cart-total').getAttribute('data-cents')).toBe('380000');
    await charge(seller.page, 'Cash');
    await expectPending(seller.page, 0, 30_000);
    expect([await stock(soda), await stock(rice)]).toEqual([38, 2.5]);

    // Back online, both tills send their counts.
    for (const { context, page } of [a, b]) {
      await context.setOffline(false);
      await expectPending(page, 0, 30_000);
    }
    // After the counts arrived, another sale is not taken as missing: expected stays 40.
    await scan(seller.page, SODA.barcode);
    await charge(seller.page, 'Cash');
    await expectPending(seller.page, 0, 30_000);

    const line = (r: { lines: { product_id: string }[] }, id: string) => {
      const l = r.lines.find((x) => x.product_id === id) as Record<string, unknown>;
      return { expected: l.expected, counted: l.counted, variance: l.variance, variance_value: l.variance_value };
    };
    const review = await rest('GET', `/inventory/stock-takes/${take.id}`);
    // Soda: the shelf held 40 when counted (level 38 when the first count arrived + the 2 sold after
    // the counts were made); 3 + 8 counted; −29 × 700 = −20,300.
    expect(line(review, soda)).toEqual({ expected: 40, counted: 11, variance: -29, variance_value: -20300 });
    // Rice: 2.5 + 0.5 sold after the count = 3 kg expected; 2.375 + 0.5 = 2.875 counted;
    // −0.125 kg × 2,900 = −362.5 → −363 (half up on the amount).
    expect(line(review, rice)).toEqual({ expected: 3, counted: 2.875, variance: -0.125, variance_value: -363 });
    expect(review.totals).toMatchObject({ products: 2, counted: 2, over: 0, short: 2, variance_value: -20663 });
    // Each till still shows its own counts (B's search found rice only).
    await b.page.getByTestId('count-search').fill('');
    expect([await here(a.page, soda), await here(b.page, soda)]).toEqual(['3', '8']);

    // Applied: soda 37 now − 29 = 8 (11 counted less the 3 sold since the count), rice 2.5 − 0.125 = 2.375
    // (2.875 counted less the 0.5 kg sold since).
    const applied = await rest('POST', `/inventory/stock-takes/${take.id}/apply`, { uncounted: 'leave' });
    expect(applied.status).toBe('applied');
    expect([await stock(soda), await stock(rice)]).toEqual([8, 2.375]);
    const again = await rest('POST', `/inventory/stock-takes/${take.id}/apply`, { uncounted: 'zero' });
    expect(again).toEqual(applied);
    expect([await stock(soda), await stock(rice)]).toEqual([8, 2.375]);
    // The selling till hears of it: its soda tile shows 8.
    await seller.page.getByTestId('product-search').fill(SODA.name);
    const tile = seller.page.locator(`[data-testid=product-tile][data-product-id="${soda}"]`);
    await expect.poll(() => tile.getAttribute('data-stock'), { timeout: 30_000 }).toBe('8');
    for (const { context } of tills) await context.close();
  }, 240_000);
});

/**
 * Reports in the back office at 390×844 and 1280×800: the owner generates the sales report of the
 * sales made through the API and reads it as a chart (uPlot's canvas drawn, with a size) and a table
 * whose total is the API's figure exactly; Download CSV saves a file with the API's rows; the
 * owner's analytics draw too and the assistant answers. A staff member without `can_view_reports`
 * is offered no Generate, and the API refuses them as well; the report types read in Swahili too.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, registerOwner } from '../../test/setup/factories.js';
import { type Shop, startShop } from '../../web/test/browser.js';
import { goTo, openOffice, signInOffice, VIEWPORTS, type Viewport } from './office.js';

const viewports = Object.keys(VIEWPORTS) as Viewport[];
const tsh = (n: number) => `TSh ${Math.round(n).toLocaleString('en-GB')}`;

/** uPlot's canvas inside a chart, drawn at a real size. */
async function drawn(page: Page, testid: string): Promise<void> {
  const canvas = page.getByTestId(testid).locator('.uplot canvas');
  await canvas.waitFor();
  const box = await canvas.boundingBox();
  expect(box?.width).toBeGreaterThan(100);
  expect(box?.height).toBeGreaterThan(50);
}

describe('reports in the back office', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ apps: ['office'] });
  }, 120_000);
  afterAll(() => shop?.close());

  /** An owner whose shop sold three times today, through the API. */
  async function shopWithSales() {
    const owner = await registerOwner(shop.t);
    const made = await shop.t.request('POST', '/inventory/products', {
      token: owner.token,
      body: { name: 'Sukari 1kg', selling_price: 3200, cost_price: 2800, stock: 100 },
    });
    expect(made.status, made.text).toBe(200);
    const product_id = made.body.data.id as string;
    for (const [qty, payment_method] of [
      [2, 'Cash'],
      [1, 'M-Pesa'],
      [5, 'Cash'],
    ] as const) {
      const sold = await shop.t.request('POST', '/pos/sale', {
        token: owner.token,
        body: { lines: [{ product_id, qty }], payment_method },
      });
      expect(sold.status, sold.text).toBe(201);
    }
    return owner;
  }

  it.each(viewports)('the owner reads the sales report as a chart, a table and a CSV, at %s size', async (viewport) => {
    const owner = await shopWithSales();
    const byApi = await shop.t.request('POST', '/reports/generate', {
      token: owner.token,
      body: { report_type: 'sales', format: 'json', range: '7d' },
    });
    expect(byApi.status, byApi.text).toBe(200);
    const total = byApi.body.data.totals.total as number;
    expect(total).toBe(8 * 3200);

    const { context, page } = await openOffice(shop, viewport);
    await signInOffice(page, owner.phone, owner.password);
    await goTo(page, 'reports');
    await page.getByTestId('report-range').selectOption('7d');
    await page.getByTestId('report-generate-submit').click();
    await page.getByTestId('report').waitFor();
    expect(await page.getByTestId('report-total-total').textContent()).toBe(tsh(total));
    expect(await page.getByTestId('report-table-row').count()).toBe(3);
    await drawn(page, 'chart-days');
    await drawn(page, 'chart-breakdown');
    // Nothing wider than the screen: no sideways scroll on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS[viewport].width);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const lines = (await readFile((await download.path())!, 'utf8')).trim().split(/\r\n/);
    const receipts = (byApi.body.data.rows as Array<{ receipt_number: string }>).map((r) => r.receipt_number);
    expect(lines[0]).toBe((byApi.body.data.columns as string[]).join(','));
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(receipts);
    // Every report made is a past export, downloadable again.
    await expect.poll(() => page.getByTestId('exports-row').count()).toBe(3);

    // The owner's analytics over the same sales, and the assistant answering from the shop's records.
    await drawn(page, 'chart-trend');
    expect(await page.getByTestId('kpi-revenue').textContent()).toBe(tsh(total));
    await page.getByTestId('ask-message').fill('How were sales today?');
    await page.getByTestId('ask-message').press('Enter');
    await page.getByTestId('chat-assistant').waitFor();
    expect((await page.getByTestId('chat-assistant').textContent())!.length).toBeGreaterThan(10);
    await context.close();
  });

  it.each(viewports)('the owner schedules a report, sends it now, switches it off and deletes it, at %s size', async (viewport) => {
    const owner = await registerOwner(shop.t);
    const { context, page } = await openOffice(shop, viewport);
    await signInOffice(page, owner.phone, owner.password);
    await goTo(page, 'reports');
    await page.getByTestId('scheduled').locator('summary').click();
    await page.getByTestId('scheduled-name').fill('Weekly sales');
    await page.getByTestId('scheduled-recipients').fill('asha@example.tz, not-an-address');
    await page.getByTestId('scheduled-add').click();
    // The server's refusal names the second address; it is marked and nothing typed is lost.
    await page.getByTestId('error-recipients.1').waitFor();
    expect(await page.getByTestId('scheduled-recipients').inputValue()).toBe('asha@example.tz, not-an-address');
    await page.getByTestId('scheduled-recipients').fill('asha@example.tz, juma@example.tz');
    await page.getByTestId('scheduled-recipients').press('Enter');
    const row = page.getByTestId('scheduled-list-row');
    await row.waitFor();
    expect(await row.textContent()).toContain('juma@example.tz');
    await row.getByTestId('scheduled-send').click();
    await page.getByTestId('scheduled-note').waitFor();
    await row.getByTestId('scheduled-toggle').click();
    await expect.poll(() => row.getByTestId('scheduled-toggle').textContent()).toBe('Switch on');
    const listed = await shop.t.request('GET', '/reports/scheduled', { token: owner.token });
    expect(
      listed.body.data.map((s: { is_enabled: boolean; last_run_at: string | null }) => [s.is_enabled, s.last_run_at !== null]),
    ).toEqual([[false, true]]);
    page.once('dialog', (d) => void d.accept());
    await row.getByTestId('scheduled-delete').click();
    await page.getByTestId('scheduled-list-empty').waitFor();
    await context.close();
  });

  it.each(viewports)(
    'a staff member without the reports permission gets no Generate and the API refuses them, at %s size',
    async (viewport) => {
      const owner = await shopWithSales();
      const staff = await createStaff(shop.t, owner);
      const refused = await shop.t.request('POST', '/reports/generate', {
        token: staff.token,
        body: { report_type: 'sales', format: 'json' },
      });
      expect(refused.status).toBe(403);

      const { context, page } = await openOffice(shop, viewport);
      await signInOffice(page, staff.phone, staff.password);
      await goTo(page, 'reports');
      await page.getByTestId('report-type').waitFor();
      expect(await page.getByTestId('report-generate-submit').count()).toBe(0);
      expect(await page.getByTestId('report-csv').count()).toBe(0);
      expect(await page.getByTestId('report-exports').count()).toBe(0);
      expect(await page.getByTestId('analytics').count()).toBe(0);
      expect(await page.getByTestId('scheduled').count()).toBe(0);
      // The report types in the owner's language, from the office's own words (the server's are English).
      expect(await page.getByTestId('report-about').textContent()).toMatch(/^Every sale of this store in the period/);
      await page.getByTestId('lang').click();
      await page.getByTestId('report-about').filter({ hasText: 'Kila mauzo ya duka hili' }).waitFor();
      expect(await page.getByTestId('report-type').locator('option').allTextContents()).toEqual([
        'Mauzo',
        'Thamani ya bidhaa',
        'VAT',
        'Madeni (wanaodaiwa)',
      ]);
      await context.close();
    },
  );
});

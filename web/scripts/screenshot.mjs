// The README's picture of the till (docs/till-screenshot.png): a demo shop on a running server,
// signed in, three products in the cart, at 1280x800.
// `node web/scripts/screenshot.mjs http://localhost:8080 0712345678 kariakoo2026` (a shop made by demo-shop.mjs).
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const [origin = 'http://localhost:8080', phone, password = 'kariakoo2026'] = process.argv.slice(2);
if (!phone) throw new Error('usage: screenshot.mjs ORIGIN PHONE [PASSWORD]');
const out = fileURLToPath(new URL('../../docs/till-screenshot.png', import.meta.url));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('pageerror', (e) => console.error('page error:', e.message));
await page.goto(`${origin}/till/`);
await page.getByTestId('sign-in-identifier').fill(phone);
await page.getByTestId('sign-in-password').fill(password);
await page.getByTestId('sign-in-submit').click();
await page.getByTestId('product-grid').waitFor({ timeout: 60_000 });
for (const code of ['6161100000024', '6161100000017', '6161100000017', '6161100000048']) {
  await page.getByTestId('scan-input').fill(code);
  await page.getByTestId('scan-input').press('Enter');
}
await page.locator('[data-testid=pay-method][data-method="M-Pesa"]').click();
await page.getByTestId('pay-reference').fill('QK7X2LM');
await page.waitForTimeout(500);
await page.screenshot({ path: out });
await browser.close();
console.log(`wrote ${out}`);

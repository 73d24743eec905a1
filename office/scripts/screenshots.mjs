// The pictures in docs/back-office.md (docs/office/*.png): every screen of the menu at 1280x800,
// and Today, the menu and Products at 390x844, of a demo shop on a running server.
// `node web/scripts/demo-shop.mjs` first, then
// `node office/scripts/screenshots.mjs http://localhost:8080 0712345678 kariakoo2026`.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const [origin = 'http://localhost:8080', phone, password = 'kariakoo2026'] = process.argv.slice(2);
if (!phone) throw new Error('usage: screenshots.mjs ORIGIN PHONE [PASSWORD]');
const out = fileURLToPath(new URL('../../docs/office/', import.meta.url));
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});

async function signedIn(viewport) {
  const page = await browser.newPage({ viewport, locale: 'en-GB' });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${origin}/office/`);
  await page.getByTestId('sign-in-identifier').fill(phone);
  await page.getByTestId('sign-in-password').fill(password);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('today-sales').waitFor({ timeout: 30_000 });
  return page;
}

const shot = async (page, name) => {
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${out}${name}.png` });
  console.log(`wrote docs/office/${name}.png`);
};

const desk = await signedIn({ width: 1280, height: 800 });
const screens = await desk
  .getByTestId('nav')
  .locator('a')
  .evaluateAll((links) => links.map((a) => a.getAttribute('data-testid')));
for (const id of screens) {
  await desk.getByTestId(id).click();
  await shot(desk, `${id.replace(/^nav-/, '')}-desk`);
}

const phoneView = await signedIn({ width: 390, height: 844 });
await shot(phoneView, 'today-phone');
await phoneView.getByTestId('menu').click();
await shot(phoneView, 'menu-phone');
await phoneView.getByTestId('nav-products').click();
await shot(phoneView, 'products-phone');
await browser.close();

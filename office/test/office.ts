/**
 * The back office in a real headless Chromium against the real server (web/test/browser.ts starts
 * both, building the apps from source), at a phone's size and a desk's: the e2e suites run each
 * flow at both.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Shop } from '../../web/test/browser.js';

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desk: { width: 1280, height: 800 },
} as const;
export type Viewport = keyof typeof VIEWPORTS;

/** A fresh browser profile on the back office, at `viewport`. */
export async function openOffice(shop: Shop, viewport: Viewport): Promise<{ context: BrowserContext; page: Page }> {
  const context = await shop.browser.newContext({ viewport: VIEWPORTS[viewport], locale: 'en-GB' });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('office page error:', e.message));
  await page.goto(`${shop.origin}/office/`);
  return { context, page };
}

export async function signInOffice(page: Page, identifier: string, password: string): Promise<void> {
  await page.getByTestId('sign-in-identifier').fill(identifier);
  await page.getByTestId('sign-in-password').fill(password);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('nav').waitFor({ state: 'attached' });
}

/** Opens a screen from the menu, as the owner would: on a phone the menu opens first. */
export async function goTo(page: Page, screen: string): Promise<void> {
  const link = page.getByTestId(`nav-${screen}`);
  if (!(await link.isVisible())) await page.getByTestId('menu').click();
  await link.click();
}

/** The screens the menu offers. */
export async function menu(page: Page): Promise<string[]> {
  const ids = await page
    .getByTestId('nav')
    .locator('a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('data-testid')!));
  return ids.map((id) => id.replace(/^nav-/, ''));
}

/**
 * Chooses in a picker (ui/picker.ts) as the owner does: types `search` and taps the option that
 * is the record `id` once the search has answered, then waits until the picker holds it.
 */
export async function pick(page: Page, testid: string, search: string, id: string): Promise<void> {
  await page.getByTestId(testid).fill(search);
  await page.locator(`[data-testid="${testid}-option"][data-id="${id}"]`).click();
  await page.locator(`[data-testid="${testid}"][data-picked="${id}"]`).waitFor();
}

/** One API call as `who`, through the shop's server, which must answer 2xx: its `data`. */
export async function callAs(shop: Shop, who: { token: string }, method: string, path: string, body?: unknown) {
  const res = await shop.t.request(method, path, { token: who.token, body });
  expect([200, 201], res.text).toContain(res.status);
  return res.body.data;
}

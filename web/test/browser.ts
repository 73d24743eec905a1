/**
 * The till app in a real headless Chromium against the real server on a real port, for the
 * end-to-end tests: the app is built from its source as `npm run build` builds it (into a folder
 * of the run's own, so a stale web/dist is never what is tested), and the server serves it at
 * /till/ as `npm start` does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { isMobileMoney } from '@duka/shared';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { expect } from 'vitest';
import { attachRealtime, type RealtimeServer } from '../../server/src/sync/ws/attach.js';
import type { Config } from '../../server/src/env.js';
import { createTestApp, type TestApp } from '../../test/setup/test-app.js';

const WEB = fileURLToPath(new URL('..', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Shop {
  t: TestApp;
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

const OFFICE = fileURLToPath(new URL('../../office', import.meta.url));

/** Builds an app from its source as `npm run build` does, into a folder of this run's own. */
async function buildApp(root: string, name: string): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), `duka-${name}-app-`));
  await build({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: dist, emptyOutDir: true, sourcemap: false },
  });
  return dist;
}

/**
 * `config`: the server's settings for this run (e.g. where TRA is). `apps`: which browser apps the
 * server serves, built for this run (the till by default; the owner's back office at /office/).
 */
export async function startShop(opts: { config?: Partial<Config>; apps?: Array<'till' | 'office'> } = {}): Promise<Shop> {
  const apps = opts.apps ?? ['till'];
  const dists = await Promise.all(apps.map((app) => buildApp(app === 'till' ? WEB : OFFICE, app)));
  const distOf = (app: 'till' | 'office') => (apps.includes(app) ? dists[apps.indexOf(app)] : undefined);
  // The browser's till stamps its sales with real time, so the server runs on real time too.
  const realTime = {
    now: () => Date.now(),
    advance: () => {
      throw new Error('the shop runs on real time');
    },
  };
  const t = await createTestApp({
    config: { ...opts.config, WEB_DIST_DIR: distOf('till') ?? path.join(tmpdir(), 'duka-no-till'), OFFICE_DIST_DIR: distOf('office') },
    clock: realTime,
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const realtime: RealtimeServer = attachRealtime(server, t.deps, { heartbeatMs: 1000 });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    t,
    origin,
    browser,
    async close() {
      await browser.close();
      await realtime.close();
      await new Promise((resolve) => server.close(resolve));
      await t.close();
      await Promise.all(dists.map((dist) => rm(dist, { recursive: true, force: true })));
    },
  };
}

/** A fresh browser profile (its own OPFS and service worker) on the till app. */
export async function openApp(shop: Shop): Promise<{ context: BrowserContext; page: Page }> {
  const context = await shop.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${shop.origin}/till/`);
  return { context, page };
}

export async function signIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.getByTestId('sign-in-identifier').fill(identifier);
  await page.getByTestId('sign-in-password').fill(password);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('product-grid').waitFor({ timeout: 60_000 });
}

/** Waits until the service worker controls the page, so a reload offline is answered from its cache. */
export async function whenOfflineReady(page: Page): Promise<void> {
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready) && navigator.serviceWorker.controller !== null, undefined, {
    timeout: 30_000,
  });
}

export const pending = async (page: Page): Promise<number> => Number(await page.getByTestId('status-pending').getAttribute('data-pending'));

export async function expectPending(page: Page, n: number, timeout = 10_000): Promise<void> {
  await expect.poll(() => pending(page), { timeout, interval: 250 }).toBe(n);
}

/** Adds a product by typing its barcode into the scan field and pressing Enter, as a keyboard-wedge scanner does. */
export async function scan(page: Page, barcode: string): Promise<void> {
  await page.getByTestId('scan-input').fill(barcode);
  await page.getByTestId('scan-input').press('Enter');
}

/**
 * Scans `codes` one after another within one task of the page, each its digits then Enter as a
 * wedge scanner sends them: every scan is in before the app has looked any of them up.
 */
export async function scanTogether(page: Page, codes: string[]): Promise<void> {
  await page.getByTestId('scan-input').evaluate((el, all) => {
    const input = el as HTMLInputElement;
    for (const code of all) {
      input.value = code;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.form!.requestSubmit();
    }
  }, codes);
}

/** Adds a product by searching for its name and tapping its tile. */
export async function pickBySearch(page: Page, name: string): Promise<void> {
  await page.getByTestId('product-search').fill(name);
  await page.locator(`[data-testid=product-tile][data-name="${name}"]`).click();
  await page.getByTestId('product-search').fill('');
}

/** Picks how the sale is paid; a mobile-money wallet is picked inside the checkout's mobile-money choice. */
export async function pickMethod(page: Page, method: string): Promise<void> {
  const wallet = isMobileMoney(method);
  await page.locator(`[data-testid=pay-method][data-method="${wallet ? 'mobile' : method}"]`).click();
  if (wallet) await page.locator(`[data-testid=mm-wallet][data-method="${method}"]`).click();
}

/**
 * Charges the cart; answers the sale's id and its till receipt number. Mobile money is charged by
 * the reference from the customer's SMS (`reference`, or one made up): Charge waits for one.
 */
export async function charge(
  page: Page,
  method: string,
  customerId?: string,
  reference?: string,
): Promise<{ id: string; receipt: string }> {
  await pickMethod(page, method);
  if (customerId) await page.locator(`[data-testid=customer-option][data-customer-id="${customerId}"]`).click();
  if (isMobileMoney(method)) await page.getByTestId('pay-reference').fill(reference ?? `SMS${Date.now().toString(36).toUpperCase()}`);
  await page.getByTestId('charge').click();
  const receipt = page.getByTestId('receipt');
  await receipt.waitFor();
  const sale = { id: (await receipt.getAttribute('data-sale-id'))!, receipt: (await receipt.getAttribute('data-receipt'))! };
  await page.getByTestId('receipt-close').click();
  return sale;
}

/**
 * Signs in with a code sent by SMS: the app asks the server to send one, the test reads it from the
 * server's outbox (the default message driver keeps what it sends), and the app signs in with it.
 */
export async function signInByCode(page: Page, phone: string, readCode: () => Promise<string | undefined>): Promise<void> {
  await page.getByTestId('sign-in-mode').click();
  await page.getByTestId('sign-in-identifier').fill(phone);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('sign-in-code').waitFor();
  let code: string | undefined;
  await expect.poll(async () => (code = await readCode()), { timeout: 10_000 }).toMatch(/^\d{6}$/);
  await page.getByTestId('sign-in-code').fill(code!);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('product-grid').waitFor({ timeout: 60_000 });
}

/**
 * The browser storage in a real browser: a page built with Vite as an app would build it (the
 * SQLite worker imported with `?worker`), served on localhost, driven in headless Chromium. It
 * proves what Node cannot: the replica survives a reload on OPFS, a second tab is refused the
 * till, and a browser without OPFS refuses to start instead of selling into memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('./browser-page/', import.meta.url));
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

type Answer = { ok: unknown } | { error: { name?: string; code?: string; message?: string } };
const call = (page: Page, name: string, ...args: unknown[]): Promise<Answer> =>
  page.evaluate(([n, a]) => (globalThis as any).page.call(n, ...a), [name, args] as const);

const openElsewhere = {
  error: {
    name: 'TillError',
    code: 'OPEN_ELSEWHERE',
    message: 'the till is already open in another tab or window of this browser: use that one, or close it and reload this page.',
  },
};

describe('browser storage in Chromium: OPFS, one tab per till, no memory fallback', () => {
  let outDir: string;
  let server: PreviewServer;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'duka-browser-page-'));
    const config = {
      root,
      configFile: false as const,
      logLevel: 'warn' as const,
      build: { outDir, emptyOutDir: true },
      // A module worker: sqlite-wasm finds its .wasm through `import.meta.url`.
      worker: { format: 'es' as const },
    };
    await build(config);
    server = await preview({ ...config, preview: { host: '127.0.0.1', port: 0 } });
    url = server.resolvedUrls!.local[0]!;
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('keeps the data across a reload and gives the till to one tab at a time', async () => {
    const context = await browser.newContext();
    const a = await context.newPage();
    await a.goto(url);
    expect(await call(a, 'addRows', 250)).toEqual({ ok: { count: 250, persisted: expect.any(Boolean) } });
    const opened = await call(a, 'openTill');
    expect(opened).toEqual({ ok: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const deviceId = (opened as { ok: string }).ok;

    const b = await context.newPage();
    await b.goto(url);
    expect(await call(b, 'openTill')).toEqual(openElsewhere);
    // Past the lock, the files themselves refuse a second worker (after a short wait for a
    // reloading page's worker to let go), and the failed start leaves them as they were.
    expect(await call(b, 'openUnclaimed')).toEqual(openElsewhere);
    expect(await call(b, 'openTill')).toEqual(openElsewhere);

    // A reload ends the page, its lock and its worker; the new page claims the till at once and
    // finds everything on OPFS.
    await a.reload();
    expect(await call(a, 'openTill')).toEqual({ ok: deviceId });
    expect(await call(b, 'openTill')).toEqual(openElsewhere);

    // Closing the till gives it up: the other tab opens the same replica.
    expect(await call(a, 'closeTill')).toEqual({ ok: true });
    expect(await call(b, 'openTill')).toEqual({ ok: deviceId });
    expect(await call(b, 'closeTill')).toEqual({ ok: true });
    expect(await call(a, 'addRows', 1)).toEqual({ ok: { count: 251, persisted: expect.any(Boolean) } });
    await context.close();
  });

  it('refuses to start where the browser has no private file system', async () => {
    const context = await browser.newContext();
    // As a browser without OPFS: the worker's global scope has no `navigator.storage.getDirectory`.
    await context.route(/\/assets\/sqlite-worker-[^/]+\.js$/, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: `delete StorageManager.prototype.getDirectory;\n${await response.text()}` });
    });
    const page = await context.newPage();
    await page.goto(url);
    const refused = {
      error: {
        name: 'TillError',
        code: 'STORAGE_UNAVAILABLE',
        message:
          "this browser cannot keep the till's data: its private file system is not available (Missing required OPFS APIs.). Open the till in a current Chrome, Edge, Firefox or Safari, outside a private window.",
      },
    };
    expect(await call(page, 'openTill')).toEqual(refused);
    // The failed start gave its claim back: the same answer again, not OPEN_ELSEWHERE.
    expect(await call(page, 'openTill')).toEqual(refused);
    expect(await call(page, 'addRows', 1)).toEqual(refused);
    await context.close();
  });
});

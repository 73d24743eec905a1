/**
 * The till's own speed in a browser (issue 39): the SDK's browser build (SQLite WASM on OPFS in a
 * worker, as the web till runs it) in headless Chromium, driven with playwright-core as
 * `web/test/browser.ts` drives the web till. The page (`bench/browser-till/`) is built with Vite
 * into the folder the bench server serves as its till app (`WEB_DIST_DIR`), so the till reaches
 * the API on its own origin, with no proxy in the way. Same shop, products and sales as the Node
 * rows: a bootstrap of the 50k products, then 5-line sales queued with no sync running.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import type { Row } from './lib.js';

const PAGE = fileURLToPath(new URL('./browser-till/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

interface Ran {
  bootMs: number;
  bootOk: boolean;
  sales: number[];
  failed: number;
  floor: number[];
  /** Where the worker's round trips went, boot and sales: `<ms> ms in <n> × <op> <sql…>`. */
  spent: { boot: string[]; sales: string[] };
  /** The one-row commit under each journal mode, p50/p99. */
  modes: string[];
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms3 = (n: number) => Math.round(n * 1000) / 1000;

export async function browserTillBenchmarks(o: {
  base: string;
  /** The bench server's `WEB_DIST_DIR`: the page is built into it. */
  distDir: string;
  account: { phone: string; password: string };
  productIds: string[];
  /** A barcode the shop has: the cold start's first scan. */
  barcode: string;
  sales: number;
  products: number;
}): Promise<Row[]> {
  await build({
    root: PAGE,
    configFile: false,
    // Served under the server's till path.
    base: '/till/',
    logLevel: 'error',
    build: { outDir: o.distDir, emptyOutDir: true },
    // A module worker: sqlite-wasm finds its .wasm through `import.meta.url`.
    worker: { format: 'es' },
  });
  // A profile on disk, as a till's browser has: a plain `newContext()` is off the record, and
  // Chromium keeps an off-the-record origin's private file system in memory.
  const profile = mkdtempSync(path.join(tmpdir(), 'duka-bench-chromium-'));
  const browser =
    process.env.BENCH_BROWSER_PROFILE === 'memory'
      ? await (await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })).newContext()
      : await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  let ran: { ok: Ran } | { error: string };
  let cold: { ok: { readyMs: number; ready: boolean } } | { error: string } | undefined;
  try {
    const page = await browser.newPage();
    const said: string[] = [];
    page.on('pageerror', (e) => said.push(e.message));
    page.on('console', (m) => m.type() === 'error' && said.push(m.text()));
    const res = await page.goto(`${o.base}/till/`);
    await page
      .waitForFunction(() => 'bench' in globalThis, undefined, { timeout: 30_000 })
      .catch((e: Error) => {
        throw new Error(`browser till bench: the page did not start (${res?.status()}; ${said.join('; ') || e.message})`);
      });
    ran = await page.evaluate((args) => (globalThis as any).bench.call(args), {
      ...o.account,
      api: `${o.base}/api/v1`,
      productIds: o.productIds,
      sales: o.sales,
      floorCommits: o.sales,
    });
    if ('ok' in ran) {
      // Cold start: reload the page; its till, bootstrapped and signed in above, opens to a first scan.
      await page.reload();
      await page.waitForFunction(() => 'bench' in globalThis, undefined, { timeout: 30_000 });
      cold = await page.evaluate((args) => (globalThis as any).bench.cold(args), {
        ...o.account,
        api: `${o.base}/api/v1`,
        productIds: [],
        sales: 0,
        floorCommits: 0,
        barcode: o.barcode,
      });
    }
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
  if ('error' in ran) throw new Error(`browser till bench: ${ran.error}`);
  if (cold && 'error' in cold) throw new Error(`browser till bench, cold start: ${cold.error}`);
  const { bootMs, bootOk, failed, spent } = ran.ok;
  console.error(`[bench] browser till: bootstrap's worker round trips: ${spent.boot.join('; ')}`);
  console.error(`[bench] browser till: the sales' worker round trips: ${spent.sales.join('; ')}`);
  console.error(`[bench] browser floor by journal mode (p50/p99): ${ran.ok.modes.join('; ')}`);
  const sales = [...ran.ok.sales].sort((a, b) => a - b);
  const floor = [...ran.ok.floor].sort((a, b) => a - b);
  const secs = ran.ok.sales.reduce((a, b) => a + b, 0) / 1000;
  return [
    {
      scenario: `browser till (Chromium, SQLite WASM on OPFS): bootstrap of ${o.products / 1000}k products + stock`,
      database: 'browser',
      m: { rps: Number.NaN, p50: Math.round(bootMs), p99: Math.round(bootMs), errors: bootOk ? 0 : 1 },
      target: '<= 2000 ms',
      met: bootOk && bootMs <= 2000,
    },
    {
      scenario: `browser till: local sale, 5 lines (${o.sales} sales, queued)`,
      database: 'browser',
      m: { rps: Math.round(o.sales / secs), p50: ms3(pct(sales, 50)), p99: ms3(pct(sales, 99)), errors: failed },
      target: 'p99 <= 5 ms',
      met: failed === 0 && pct(sales, 99) <= 5,
    },
    {
      scenario: 'browser till: cold start, reload to ready to scan (open, signed in, first barcode answered)',
      database: 'browser',
      m: {
        rps: Number.NaN,
        p50: Math.round(cold?.ok.readyMs ?? 0),
        p99: Math.round(cold?.ok.readyMs ?? 0),
        errors: cold?.ok.ready ? 0 : 1,
      },
      target: '<= 1000 ms',
      met: cold !== undefined && cold.ok.ready && cold.ok.readyMs <= 1000,
    },
    {
      scenario: 'browser floor: one-row durable commit (OPFS, synchronous=FULL, through the worker)',
      database: 'browser',
      m: { rps: Number.NaN, p50: ms3(pct(floor, 50)), p99: ms3(pct(floor, 99)), errors: 0 },
      target: 'floor',
      met: null,
    },
  ];
}

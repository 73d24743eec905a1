/**
 * The browser entry, built (`dist/browser.js`), against the real server. Node plays the browser:
 * its `WebSocket` global is `ws` through the standard interface only (onopen, onmessage, onclose),
 * which like a browser's shows no pings and turns a refused upgrade into a bare close 1006.
 */
import path from 'node:path';
import { sqliteFile } from '@duka/client-sdk';
import { build } from 'esbuild';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Till as BrowserTill, type BrowserTillOptions } from '../dist/browser.js';
import { type Harness, seedShop, startServer, until } from './harness.js';

describe('the browser entry', () => {
  let h: Harness;
  const global = globalThis as { WebSocket?: unknown };
  const before = global.WebSocket;
  beforeAll(async () => {
    global.WebSocket = WebSocket;
    h = await startServer({ realtime: true });
  });
  afterAll(async () => {
    global.WebSocket = before;
    await h.close();
  });
  const open = (o: Partial<BrowserTillOptions> = {}) =>
    BrowserTill.open({
      baseUrl: h.base,
      storage: sqliteFile(':memory:'),
      deviceName: 'Browser',
      fetch: h.net.fetch,
      now: h.t.clock.now,
      syncIntervalMs: 600_000,
      backoff: { baseMs: 20, maxMs: 100 },
      ...o,
    });
  const count = (from: number, call: string) => h.net.calls.slice(from).filter((c) => c === call).length;

  it('bundles for a browser, with nothing of Node in it', async () => {
    // esbuild for the browser platform fails on any Node built-in the graph reaches.
    const out = await build({
      entryPoints: [path.join(import.meta.dirname, '../dist/browser.js')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const packages = new Set(Object.keys(out.metafile.inputs).flatMap((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? []));
    expect([...packages].sort()).toEqual(['kysely', 'lib0', 'uuid', 'yjs', 'zod']);
  });

  it('needs a storage: a browser has no files for dbPath', async () => {
    const opts = { baseUrl: h.base, dbPath: ':memory:', deviceName: 'Browser' } as unknown as BrowserTillOptions;
    await expect(BrowserTill.open(opts)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', field: 'storage' });
  });

  it('goes live over the native WebSocket and pulls when poked', async () => {
    const shop = await seedShop(h);
    const t = await open();
    await t.login(shop.owner.phone, shop.owner.password);
    await until(() => t.status().live && t.status().bootstrapped && !t.status().syncing, 5000, 'socket open, shop loaded');
    await new Promise((r) => setTimeout(r, 50));
    await until(() => !t.status().syncing, 5000, 'quiet');
    const from = h.net.calls.length;
    const p = (await h.t.request('POST', '/inventory/products', { token: shop.owner.token, body: { name: 'Mkate', selling_price: 1500 } }))
      .body.data;
    await until(async () => (await t.product(p.id)) !== null, 5000, 'the poked pull');
    expect(count(from, 'GET /sync/pull')).toBeGreaterThan(0);
    await t.close();
  });

  it('4001 is seen through the native socket: the till refreshes and the socket comes back', async () => {
    const shop = await seedShop(h);
    const t = await open();
    await t.login(shop.owner.phone, shop.owner.password);
    await until(() => t.status().live, 5000, 'socket open');
    const states: boolean[] = [];
    t.on('status', (s) => states.push(s.live));
    const from = h.net.calls.length;
    h.t.clock.advance(h.t.config.ACCESS_TOKEN_TTL * 1000 + 1000);
    await until(() => states.includes(false), 5000, 'the server closing the socket');
    await until(() => t.status().live, 5000, 'socket open again');
    expect(count(from, 'POST /auth/refresh')).toBe(1);
    await t.close();
  });

  it('a dial refused for a token the lagging till thinks fresh is retried, the link refreshes the token, and the socket comes back', async () => {
    const shop = await seedShop(h);
    const lagging = h.t.clock.now();
    // Syncs fail before reaching the server, so they cannot find the token stale: only the link can.
    let syncCut = false;
    const fetch = (input: string, init?: RequestInit) =>
      syncCut && input.includes('/sync/') ? Promise.reject(new TypeError('fetch failed')) : h.net.fetch(input, init);
    // The till's clock stands still: its token always looks fresh to it.
    const t = await open({ now: () => lagging, fetch });
    await t.login(shop.owner.phone, shop.owner.password);
    await until(() => t.status().live && !t.status().syncing, 5000, 'socket open');
    t.stopSync();
    await until(() => !t.status().live, 5000, 'socket closed');
    syncCut = true;
    h.t.clock.advance(h.t.config.ACCESS_TOKEN_TTL * 1000 + 1000);
    const from = h.net.calls.length;
    t.startSync();
    await until(() => t.status().live, 5000, 'socket open again');
    // Two refused dials with the same token, then one refresh.
    expect(count(from, 'POST /auth/refresh')).toBe(1);
    expect(t.status()).toMatchObject({ live: true, authRequired: false });
    await t.close();
  });
});

/** The browser till at /till/: the built files with the caching a service-worker app needs (server/src/lib/browser-apps.ts). */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const INDEX = '<!doctype html><title>Duka till</title><script type="module" src="/till/assets/index-AbC123.js"></script>';

function fakeDist(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duka-web-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(dir, 'manifest.webmanifest'), JSON.stringify({ name: 'Duka till', start_url: '/till/' }));
  writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), 'console.log("till");');
  writeFileSync(path.join(dir, 'assets', 'sqlite3-Xy9.wasm'), Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  return dir;
}

describe('the till app at /till/', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ config: { WEB_DIST_DIR: fakeDist() } })));
  afterAll(() => t.close());

  it('answers index.html, never cached by HTTP, with the headers the app needs', async () => {
    const res = await t.app.request('/till/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(await res.text()).toBe(INDEX);
  });

  it('redirects /till to /till/', async () => {
    const res = await t.app.request('/till');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/till/');
  });

  it("answers the app's own screens with index.html (SPA fallback)", async () => {
    const res = await t.app.request('/till/sales/recent');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);
  });

  it('caches hashed assets for good, with their content types', async () => {
    const js = await t.app.request('/till/assets/index-AbC123.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log("till");');

    const wasm = await t.app.request('/till/assets/sqlite3-Xy9.wasm');
    expect(wasm.status).toBe(200);
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(wasm.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(new Uint8Array(await wasm.arrayBuffer())).toEqual(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  });

  it('never lets HTTP cache the service worker or the manifest', async () => {
    const manifest = await t.app.request('/till/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(await manifest.json()).toEqual({ name: 'Duka till', start_url: '/till/' });

    const sw = await t.app.request('/till/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404, not the page, for a file that is not there', async () => {
    const res = await t.app.request('/till/assets/gone-123.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBeNull();
  });
});

describe('the till app before it is built', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ config: { WEB_DIST_DIR: mkdtempSync(path.join(os.tmpdir(), 'duka-web-empty-')) } })));
  afterAll(() => t.close());

  it('says how to build it', async () => {
    const res = await t.app.request('/till/');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await res.text()).toMatch(/^The till app is not built: run `npm run build`/);
  });
});

describe('the till app and paths that climb out of it', () => {
  let t: TestApp;
  const SECRET = 'JWT_SECRET=not-for-the-browser';
  beforeAll(async () => {
    // The built app in parent/dist, and a file beside it that must never be served.
    const parent = mkdtempSync(path.join(os.tmpdir(), 'duka-web-parent-'));
    const dist = path.join(parent, 'dist');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(parent, 'secret.txt'), SECRET);
    t = await createTestApp({ config: { WEB_DIST_DIR: dist } });
  });
  afterAll(() => t.close());

  it.each([
    '/till/../secret.txt',
    '/till/%2e%2e/secret.txt',
    '/till/assets/..%2f..%2fsecret.txt',
    '/till/..%2fsecret.txt',
    '/till/..%5csecret.txt',
    '/till/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/till//..//secret.txt',
  ])('never serves a file outside the build: %s', async (url) => {
    const res = await t.app.request(url);
    expect(await res.text()).not.toContain(SECRET);
    expect(res.status).not.toBe(500);
  });
});

describe('the back office at /office/, beside the till', () => {
  let t: TestApp;
  const OFFICE_INDEX = '<!doctype html><title>Duka back office</title><script type="module" src="/office/assets/index-Of1.js"></script>';
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'duka-office-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), OFFICE_INDEX);
    writeFileSync(path.join(dist, 'assets', 'index-Of1.js'), 'console.log("office");');
    t = await createTestApp({ config: { WEB_DIST_DIR: fakeDist(), OFFICE_DIST_DIR: dist } });
  });
  afterAll(() => t.close());

  it('answers its own index.html for its screens, never cached by HTTP, and the till its own', async () => {
    for (const url of ['/office/', '/office/products', '/office/products/new']) {
      const res = await t.app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(OFFICE_INDEX);
    }
    expect(await (await t.app.request('/till/')).text()).toBe(INDEX);
  });

  it('caches its hashed assets for good and redirects /office to /office/', async () => {
    const asset = await t.app.request('/office/assets/index-Of1.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bare = await t.app.request('/office');
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/office/');
  });

  it('says how to build it when its build is missing', async () => {
    const empty = await createTestApp({ config: { OFFICE_DIST_DIR: mkdtempSync(path.join(os.tmpdir(), 'duka-office-empty-')) } });
    const res = await empty.app.request('/office/');
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/^The back office is not built: run `npm run build`/);
    await empty.close();
  });
});

/** The till app's precompressed files over real HTTP: the encoding the request accepts, the cache headers, the bytes (issue 37). */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
// What a build leaves: each file with its .br and .gz beside it (web/vite.config.ts), small ones without.
const JS = Buffer.from(`export const till = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `product ${i}`))};\n`);
const INDEX = Buffer.from('<!doctype html><title>Duka till</title><script type="module" src="/till/assets/index-AbC123.js"></script>');

function builtDist(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duka-web-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  const withCopies = (rel: string, bytes: Buffer) => {
    writeFileSync(path.join(dir, rel), bytes);
    writeFileSync(path.join(dir, `${rel}.br`), brotliCompressSync(bytes));
    writeFileSync(path.join(dir, `${rel}.gz`), gzipSync(bytes));
  };
  withCopies('assets/index-AbC123.js', JS);
  withCopies('index.html', INDEX);
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  return dir;
}

/** A GET over a socket, the body as sent (node:http decodes nothing). */
function get(port: number, url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('the till app’s precompressed files over HTTP', () => {
  let t: TestApp;
  let server: ServerType;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ config: { WEB_DIST_DIR: builtDist() } });
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('answers a hashed asset in brotli to a browser that takes it, cached for good, decoding to the file', async () => {
    const res = await get(port, '/till/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-encoding': 'br',
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': IMMUTABLE,
      vary: 'Accept-Encoding',
    });
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(JS.length / 3);
    expect(brotliDecompressSync(res.body).equals(JS)).toBe(true);
  });

  it('answers gzip to a client that takes only gzip', async () => {
    const res = await get(port, '/till/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip' });
    expect(res.headers).toMatchObject({ 'content-encoding': 'gzip', 'cache-control': IMMUTABLE, vary: 'Accept-Encoding' });
    expect(gunzipSync(res.body).equals(JS)).toBe(true);
  });

  it('answers the plain file to a client that takes no encoding, or one it does not know', async () => {
    for (const headers of [{}, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'deflate' }] as Record<string, string>[]) {
      const res = await get(port, '/till/assets/index-AbC123.js', headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers).toMatchObject({ 'cache-control': IMMUTABLE, vary: 'Accept-Encoding' });
      expect(res.body.equals(JS)).toBe(true);
    }
  });

  it('compresses the page too, but never lets HTTP cache it or the service worker', async () => {
    for (const url of ['/till/', '/till/sales/recent']) {
      const page = await get(port, url, { 'Accept-Encoding': 'br' });
      expect(page.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'no-cache' });
      expect(brotliDecompressSync(page.body).equals(INDEX)).toBe(true);
    }
    const sw = await get(port, '/till/sw.js', { 'Accept-Encoding': 'br, gzip' });
    expect(sw.headers['content-encoding']).toBeUndefined();
    expect(sw.headers['cache-control']).toBe('no-cache');
  });
});

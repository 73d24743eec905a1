/**
 * The till app: built to web/dist and served by the server at /till/ (server/src/lib/browser-apps.ts).
 * `npm run dev -w web` serves it with the API proxied to a server on :8080.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { serviceWorker } from './build/service-worker.js';

/**
 * Brotli and gzip copies of every text or wasm file (`x.js.br`, `x.js.gz`), which the server picks
 * by Accept-Encoding (server/src/lib/browser-apps.ts): the first download over 3G is what a new till
 * waits for. sw.js is left out: the service-worker plugin writes its precache list into it after.
 */
const precompressed = compression({
  algorithms: ['brotliCompress', 'gzip'],
  include: /\.(js|mjs|css|html|wasm|svg|json|webmanifest)$/,
  exclude: /(^|\/)sw\.js$/,
  threshold: 1024,
});

export default defineConfig({
  base: '/till/',
  plugins: [serviceWorker(fileURLToPath(new URL('./src/sw.ts', import.meta.url))), precompressed],
  // The till SDK (kysely, zod, yjs) is most of the 530 kB bundle; it loads once and then comes from the service worker's cache.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 1024 },
  // The SQLite worker imports modules of its own.
  worker: { format: 'es' },
  // sqlite-wasm finds its .wasm next to its own module, which pre-bundling would move.
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  server: { proxy: { '/api': { target: process.env.DUKA_SERVER ?? 'http://localhost:8080', ws: true } } },
});

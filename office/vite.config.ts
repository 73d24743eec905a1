/**
 * The owner's back office: built to office/dist and served by the server at /office/
 * (server/src/lib/browser-apps.ts). `npm run dev -w office` serves it with the API proxied to a
 * server on :8080.
 */
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/** Brotli and gzip copies of every text file, which the server picks by Accept-Encoding: an owner's phone on 3G. */
const precompressed = compression({
  algorithms: ['brotliCompress', 'gzip'],
  include: /\.(js|mjs|css|html|svg|json|webmanifest)$/,
  threshold: 1024,
});

export default defineConfig({
  base: '/office/',
  plugins: [precompressed],
  // Each screen is its own chunk (ui/screens.ts imports them on demand), so the first load is the shell and one screen.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true },
  server: { proxy: { '/api': { target: process.env.DUKA_SERVER ?? 'http://localhost:8080', ws: true } } },
});

/**
 * The browser till (`web/`, built to web/dist by `npm run build`) at /till/. The service worker
 * keeps the app offline, so what it fetches to check for a new version (index.html, sw.js, the
 * manifest) is never cached by HTTP, while Vite's content-hashed assets are cached for good.
 * Paths without a file extension are the app's own screens and get index.html.
 *
 * The build leaves brotli and gzip copies beside each text and wasm file (`x.js.br`, `x.js.gz`:
 * web/vite.config.ts); serveStatic's `precompressed` answers the best one the request's
 * Accept-Encoding names (br, then gzip; a weighted `br;q=1` is not read, and gets the plain file),
 * so the first download of a till (1.9 MB plain) costs a 3G link a fraction of it and no CPU here.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import type { Config } from '../env.js';

export const TILL_PATH = '/till';
const DEFAULT_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function tillApp(config: Pick<Config, 'WEB_DIST_DIR'>) {
  const dist = path.resolve(config.WEB_DIST_DIR ?? DEFAULT_DIST);
  // Made once the build is there: the server may start before `npm run build` has run.
  let files: { asset: MiddlewareHandler; page: MiddlewareHandler } | undefined;
  const app = new Hono();

  app.get(TILL_PATH, (c) => c.redirect(`${TILL_PATH}/`, 301));
  app.use(`${TILL_PATH}/*`, async (c, next) => {
    if (!existsSync(path.join(dist, 'index.html'))) {
      // The folder is not named: the answer is public, the server's file layout is not.
      return c.text('The till app is not built: run `npm run build` in the repository (or set WEB_DIST_DIR), then reload.\n', 503, {
        'Cache-Control': 'no-store',
      });
    }
    files ??= {
      asset: serveStatic({ root: dist, precompressed: true, rewriteRequestPath: (p) => p.slice(TILL_PATH.length) || '/' }),
      page: serveStatic({ root: dist, precompressed: true, path: 'index.html' }),
    };
    await next();
    if (c.res.status !== 200 && c.res.status !== 206) return;
    c.res.headers.set('Cache-Control', c.req.path.startsWith(`${TILL_PATH}/assets/`) ? IMMUTABLE : 'no-cache');
    // A cache between the till and the server keeps one copy per encoding, the plain one included.
    if (!c.res.headers.get('Vary')?.includes('Accept-Encoding')) c.res.headers.append('Vary', 'Accept-Encoding');
  });
  app.get(`${TILL_PATH}/*`, (c, next) => files!.asset(c, next));
  app.get(`${TILL_PATH}/*`, (c, next) => (path.posix.extname(c.req.path) ? next() : files!.page(c, next)));
  return app;
}

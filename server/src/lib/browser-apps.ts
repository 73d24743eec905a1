/**
 * The two browser apps the server serves beside the API: the till (`web/`) at /till/ and the
 * owner's back office (`office/`) at /office/, each built by `npm run build`. The till's service
 * worker keeps it offline, so what it fetches to check for a new version (index.html, sw.js, the
 * manifest) is never cached by HTTP, while Vite's content-hashed assets are cached for good; the
 * office follows the same rule so a new build reaches the owner on the next load.
 * Paths without a file extension are the app's own screens and get index.html.
 *
 * Each build leaves brotli and gzip copies beside each text and wasm file (`x.js.br`, `x.js.gz`:
 * the apps' vite.config.ts); serveStatic's `precompressed` answers the best one the request's
 * Accept-Encoding names (br, then gzip; a weighted `br;q=1` is not read, and gets the plain file),
 * so the first download over a 3G link costs a fraction of the plain size and no CPU here.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import type { Config } from '../env.js';

export const TILL_PATH = '/till';
export const OFFICE_PATH = '/office';
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface BrowserApp {
  /** Where the app is served, e.g. /till. */
  prefix: string;
  /** The folder of its build. */
  dist: string;
  /** What a visitor is told while the build is missing. */
  missing: string;
}

function serveApp({ prefix, dist, missing }: BrowserApp) {
  // Made once the build is there: the server may start before `npm run build` has run.
  let files: { asset: MiddlewareHandler; page: MiddlewareHandler } | undefined;
  const app = new Hono();

  app.get(prefix, (c) => c.redirect(`${prefix}/`, 301));
  app.use(`${prefix}/*`, async (c, next) => {
    if (!existsSync(path.join(dist, 'index.html'))) {
      // The folder is not named: the answer is public, the server's file layout is not.
      return c.text(missing, 503, { 'Cache-Control': 'no-store' });
    }
    files ??= {
      asset: serveStatic({ root: dist, precompressed: true, rewriteRequestPath: (p) => p.slice(prefix.length) || '/' }),
      page: serveStatic({ root: dist, precompressed: true, path: 'index.html' }),
    };
    await next();
    if (c.res.status !== 200 && c.res.status !== 206) return;
    c.res.headers.set('Cache-Control', c.req.path.startsWith(`${prefix}/assets/`) ? IMMUTABLE : 'no-cache');
    // A cache between the browser and the server keeps one copy per encoding, the plain one included.
    if (!c.res.headers.get('Vary')?.includes('Accept-Encoding')) c.res.headers.append('Vary', 'Accept-Encoding');
  });
  app.get(`${prefix}/*`, (c, next) => files!.asset(c, next));
  app.get(`${prefix}/*`, (c, next) => (path.posix.extname(c.req.path) ? next() : files!.page(c, next)));
  return app;
}

const repoFolder = (name: string) => fileURLToPath(new URL(`../../../${name}/dist`, import.meta.url));

export function browserApps(config: Pick<Config, 'WEB_DIST_DIR' | 'OFFICE_DIST_DIR'>) {
  const app = new Hono();
  app.route(
    '/',
    serveApp({
      prefix: TILL_PATH,
      dist: path.resolve(config.WEB_DIST_DIR ?? repoFolder('web')),
      missing: 'The till app is not built: run `npm run build` in the repository (or set WEB_DIST_DIR), then reload.\n',
    }),
  );
  app.route(
    '/',
    serveApp({
      prefix: OFFICE_PATH,
      dist: path.resolve(config.OFFICE_DIST_DIR ?? repoFolder('office')),
      missing: 'The back office is not built: run `npm run build` in the repository (or set OFFICE_DIST_DIR), then reload.\n',
    }),
  );
  return app;
}
